import Foundation
import Pinhole
import PinholeVips

extension DemoFeed {
    /// `${XDG_CACHE_HOME:-~/.cache}/pinhole/demo-thumbhashes.tsv`: the demo's photos' ThumbHashes, so only its
    /// first run computes them.
    static func defaultThumbHashCache(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let cacheHome =
            environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return URL(fileURLWithPath: cacheHome).appendingPathComponent("pinhole/demo-thumbhashes.tsv")
    }

    /// The ThumbHash (base64) of each of `photos` in `directory`, for the items' `_pinhole.thumbhash` extension:
    /// read from `cache` (lines of file name, size in bytes, modification time, hash) for a photo whose size and
    /// time still match, else computed (``thumbHashes(of:in:)``) and the cache rewritten, atomically. A cache
    /// that cannot be read or written only costs the computation.
    static func cachedThumbHashes(of photos: [String], in directory: String, cache: URL) async -> [String: String] {
        let (stamps, cached) =
            (try? await WorkerThreadPool.io.run { () -> ([String: String], [String: String]) in
                var stamps: [String: String] = [:]
                for photo in photos {
                    guard let attributes = try? FileManager.default.attributesOfItem(atPath: directory + "/" + photo)
                    else { continue }
                    let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
                    let time = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                    stamps[photo] = "\(photo)\t\(size)\t\(Int(time))"
                }
                var cached: [String: String] = [:]
                let text = (try? String(contentsOf: cache, encoding: .utf8)) ?? ""
                for line in text.split(separator: "\n") {
                    guard let tab = line.lastIndex(of: "\t") else { continue }
                    cached[String(line[..<tab])] = String(line[line.index(after: tab)...])
                }
                return (stamps, cached)
            }) ?? ([:], [:])
        var hashes: [String: String] = [:]
        for photo in photos { hashes[photo] = stamps[photo].flatMap { cached[$0] } }
        let missing = photos.filter { hashes[$0] == nil }
        guard !missing.isEmpty else { return hashes }
        hashes.merge(await thumbHashes(of: missing, in: directory)) { old, _ in old }
        let lines = photos.compactMap { photo in
            stamps[photo].flatMap { stamp in hashes[photo].map { "\(stamp)\t\($0)\n" } }
        }
        _ = try? await WorkerThreadPool.io.run {
            try FileManager.default.createDirectory(
                at: cache.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(lines.joined().utf8).write(to: cache, options: .atomic)
        }
        return hashes
    }

    /// The ThumbHash (base64) of each of `photos` in `directory`: each photo decoded by shrink-on-load to
    /// ``ThumbHash/maxEncodedSide`` pixels (JPEG's DCT scaling), on a pipeline of its own with no memory cache,
    /// so the demo's own downloads and decodes are not warmed by it. A photo that fails to decode gets no hash (its
    /// row shows the plain placeholder).
    static func thumbHashes(of photos: [String], in directory: String) async -> [String: String] {
        var configuration = ImagePipeline.Configuration(
            decoder: VipsDecoder(), dataLoader: FileDataLoader(allowedRoot: URL(fileURLWithPath: directory)))
        configuration.memoryCache = nil
        let pipeline = ImagePipeline(configuration: configuration)
        return await withTaskGroup(of: (String, String?).self) { group in
            for photo in photos {
                group.addTask {
                    let url = URL(fileURLWithPath: directory).appendingPathComponent(photo)
                    let request = ImageRequest(url: url, maxPixelSize: ThumbHash.maxEncodedSide)
                    guard let response = try? await pipeline.image(for: request) else { return (photo, nil) }
                    let hash = try? await WorkerThreadPool.cpu.run { try ThumbHash.make(from: response.image) }
                    return (photo, hash?.base64)
                }
            }
            var hashes: [String: String] = [:]
            for await (photo, hash) in group { hashes[photo] = hash }
            return hashes
        }
    }
}
