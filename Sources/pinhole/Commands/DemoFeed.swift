import Foundation
import Pinhole
import PinholeTestServer

/// The demo behind `pinhole gallery` without a FEED (``GalleryCommand`` starts it and hands its URL to the gallery): a
/// JSON Feed of ``itemCount`` items over the real-photo corpus, served by a ``PinholeTestServer`` on loopback with a
/// realistic latency, so the demo exercises the real network path (HTTP, coalescing, cancellation, decoding).
///
/// - `/feed.json` answers after 150 ms (`application/feed+json`); each item carries its photo's ThumbHash in the
///   `_pinhole` extension (`{"thumbhash": "…"}`), which the gallery draws until the thumbnail arrives (computed on
///   the first run, then read from ``defaultThumbHashCache(environment:)``).
/// - `/img/N/FILE` serves corpus photo FILE (item N cycles over the photos, so every item has its own URL and
///   its own download and decode) after a latency between 80 and 250 ms that depends on N.
/// - `/anim/N/FILE` serves an animated GIF or WebP of ``animationsDirectory(of:)`` the same way: items 3, 13, 23…
///   are animations when that directory has any.
///
/// Thread-safe. Call ``stop()`` when done (it joins the server's threads; do it off the main actor).
final class DemoFeed: Sendable {
    /// Why the demo cannot start.
    struct Error: Swift.Error, Sendable, CustomStringConvertible {
        var description: String
    }

    /// The server; ``PinholeTestServer/stats`` counts the requests.
    let server: PinholeTestServer
    /// `http://127.0.0.1:PORT/feed.json`.
    let feedURL: URL
    /// Items in the feed.
    let itemCount: Int

    private init(server: PinholeTestServer, itemCount: Int) {
        self.server = server
        self.feedURL = server.url("/feed.json")
        self.itemCount = itemCount
    }

    /// `$PINHOLE_CORPUS`, else `${XDG_CACHE_HOME:-~/.cache}/pinhole/corpus` (built by `scripts/make-corpus.sh`).
    static func defaultCorpusDirectory(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> URL
    {
        if let corpus = environment["PINHOLE_CORPUS"], !corpus.isEmpty { return URL(fileURLWithPath: corpus) }
        let cacheHome =
            environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return URL(fileURLWithPath: cacheHome).appendingPathComponent("pinhole/corpus")
    }

    /// The latency of item `index`'s image, between 80 and 250 ms.
    static func latency(ofItem index: Int) -> Duration {
        .milliseconds(80 + (index * 7919) % 171)
    }

    /// Lists the corpus (on ``WorkerThreadPool/io``), starts the server and serves the feed.
    ///
    /// - Parameters:
    ///   - corpus: a directory of photos (`.jpg`, `.jpeg`, `.png`, `.webp`), optionally with `MANIFEST.tsv`.
    ///   - itemCount: items in the feed; 200 by default.
    ///   - thumbHashCache: where the photos' ThumbHashes are kept between runs (``defaultThumbHashCache(environment:)``
    ///     by default).
    /// - Throws: ``Error`` when the directory has no photos; ``PinholeTestServer/StartError``.
    static func start(
        corpus: URL, itemCount: Int = 200, thumbHashCache: URL = defaultThumbHashCache()
    ) async throws -> DemoFeed {
        let directory = corpus.path
        let animationsDirectory = animationsDirectory(of: corpus).path
        let (photos, manifest, animations) = try await WorkerThreadPool.io.run {
            () throws -> ([String], [String: String], [String]) in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            let photos = names.filter { name in
                ["jpg", "jpeg", "png", "webp"].contains((name as NSString).pathExtension.lowercased())
            }.sorted()
            return (
                photos, Self.readManifest(directory + "/MANIFEST.tsv"), Self.listAnimations(in: animationsDirectory)
            )
        }
        guard !photos.isEmpty else {
            throw Error(
                description: "no photos in \(directory) (build the corpus with scripts/make-corpus.sh "
                    + "or set PINHOLE_CORPUS)")
        }
        let server = try PinholeTestServer()
        let demo = DemoFeed(server: server, itemCount: max(1, itemCount))
        let hashes = await cachedThumbHashes(of: photos, in: directory, cache: thumbHashCache)
        let feed = demo.feedDocument(photos: photos, animations: animations, manifest: manifest, hashes: hashes)
        server.route(
            "/feed.json",
            Route(headers: ["content-type": "application/feed+json"], body: feed, latency: .milliseconds(150)))
        server.setHandler { request in
            let parts = request.path.split(separator: "/")
            guard parts.count == 3, let index = Int(parts[1]) else { return nil }
            let file = String(parts[2])
            if parts[0] == "anim" {
                guard animations.contains(file),
                    let data = FileManager.default.contents(atPath: animationsDirectory + "/" + file)
                else { return nil }
                return .image(data, contentType: animationContentType(of: file), latency: latency(ofItem: index))
            }
            guard parts[0] == "img" else { return nil }
            guard photos.contains(file), let data = FileManager.default.contents(atPath: directory + "/" + file)
            else { return nil }
            let type = (file as NSString).pathExtension.lowercased()
            let contentType = type == "png" ? "image/png" : type == "webp" ? "image/webp" : "image/jpeg"
            return .image(data, contentType: contentType, latency: latency(ofItem: index))
        }
        return demo
    }

    /// Stops the server (joins its threads: call it off the main actor).
    func stop() {
        server.stop()
    }

    private func feedDocument(
        photos: [String], animations: [String], manifest: [String: String], hashes: [String: String]
    ) -> Data {
        let formatter = Date.ISO8601FormatStyle()
        let newest = Date(timeIntervalSince1970: 1_780_000_000)
        let items: [[String: Any]] = (0..<itemCount).map { index in
            let file = photos[index % photos.count]
            var item: [String: Any] = [
                "id": "demo-\(index + 1)",
                "title": "\(Self.title(of: file)) #\(index + 1)",
                "image": server.url("/img/\(index + 1)/\(file)").absoluteString,
                "date_published": newest.addingTimeInterval(-Double(index) * 61_000).formatted(formatter),
            ]
            if let animation = Self.animation(ofItem: index, in: animations) {
                item["title"] = "\(Self.animationTitle(of: animation)) #\(index + 1)"
                item["image"] = server.url("/anim/\(index + 1)/\(animation)").absoluteString
                return item
            }
            if let summary = manifest[file] { item["summary"] = summary }
            if let hash = hashes[file] { item["_pinhole"] = ["thumbhash": hash] }
            return item
        }
        let document: [String: Any] = [
            "version": "https://jsonfeed.org/version/1.1",
            "title": "Pinhole demo: \(itemCount) real photos over loopback HTTP",
            "items": items,
        ]
        return (try? JSONSerialization.data(withJSONObject: document)) ?? Data()
    }

    /// `kde-colorfulcups-4mp-cmyk.jpg` → `Colorfulcups (4 MP, CMYK)`.
    static func title(of file: String) -> String {
        let stem = (file as NSString).deletingPathExtension
        var words: [String] = []
        var notes: [String] = []
        for part in stem.split(separator: "-").map(String.init) {
            if ["kde", "mate", "skimage", "sklearn"].contains(part) { continue }
            if part.hasSuffix("mp"), Int(part.dropLast(2)) != nil {
                notes.append(part.dropLast(2) + " MP")
            } else if words.isEmpty
                || notes.isEmpty && part.count > 4 && !part.contains("exif") && part != "progressive"
                    && part != "baseline" && part != "portrait" && part != "cmyk"
            {
                words.append(part.prefix(1).uppercased() + part.dropFirst())
            } else {
                notes.append(part.uppercased() == "CMYK" ? "CMYK" : part)
            }
        }
        let name = words.joined(separator: " ")
        let type = (file as NSString).pathExtension.uppercased()
        notes.append(type == "JPG" ? "JPEG" : type)
        return "\(name) (\(notes.joined(separator: ", ")))"
    }

    /// `file` → "format width×height · details · licence" from the corpus manifest.
    private static func readManifest(_ path: String) -> [String: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var summaries: [String: String] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 8 else { continue }
            summaries[fields[0]] = "\(fields[1]) \(fields[2])×\(fields[3]) · \(fields[6]) · \(fields[7])"
        }
        return summaries
    }
}
