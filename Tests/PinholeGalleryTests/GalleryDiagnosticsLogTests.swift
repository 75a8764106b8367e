import Foundation
import PinholeTestServer
import PinholeTestSupport
import Testing

/// libvips' warnings go to the gallery's diagnostics log (`--log FILE`), never to the screen, where a user reads
/// them as errors.
@Suite(.timeLimit(scaledMinutes: 2))
struct GalleryDiagnosticsLogTests {
    static let inputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/cases/inputs")

    @Test func aLibvipsWarningIsWrittenToTheLogAndNotDrawn() async throws {
        // Given a feed of one CMYK JPEG whose profile libvips calls incompatible (a warning; the image decodes)
        let server = try PinholeTestServer()
        let image = try await readData(atPath: Self.inputs.appendingPathComponent("cmyk-adobe.jpg").path)
        server.route("/cmyk.jpg", .image(image))
        let feed: [String: Any] = [
            "version": "https://jsonfeed.org/version/1.1", "title": "Warnings",
            "items": [["id": "1", "title": "Printed colours", "image": server.url("/cmyk.jpg").absoluteString]],
        ]
        server.route("/feed.json", Route(body: try JSONSerialization.data(withJSONObject: feed)))
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-log-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let log = scratch.appendingPathComponent("diagnostics.log").path

        // When the gallery shows it (output not a terminal: frames are still drawn) and quits
        let result = try await SpawnedProcess.run(
            [
                PinholeExecutable.path, "gallery", server.url("/feed.json").absoluteString, "--script",
                "ready,quit", "--log", log,
            ],
            environment: ["COLUMNS": "100", "LINES": "30", "XDG_DATA_HOME": scratch.path, "PATH": "/usr/bin:/bin"])
        await server.shutDown()

        // Then it quit cleanly, the warning is in the log with its time, and no frame shows it
        #expect(result.status == 0, "\(result.stderr)")
        let logged = try await readText(atPath: log)
        #expect(logged.contains("libvips: VIPS: profile incompatible with image"), "\(logged)")
        #expect(!result.stdout.contains("profile incompatible"))
        #expect(!result.stdout.contains("libvips:"))
        #expect(result.stdout.contains("Printed colours"))
    }

    @Test func anUnusableThumbHashInTheFeedIsWrittenToTheLogAndTheItemStillShows() async throws {
        // Given a feed whose one item carries a `_pinhole.thumbhash` that is not base64
        let server = try PinholeTestServer()
        let image = try await readData(atPath: Self.inputs.appendingPathComponent("baseline.jpg").path)
        server.route("/photo.jpg", .image(image))
        let item: [String: Any] = [
            "id": "7", "title": "Broken hash", "image": server.url("/photo.jpg").absoluteString,
            "_pinhole": ["thumbhash": "%%%"],
        ]
        let feed: [String: Any] = ["version": "https://jsonfeed.org/version/1.1", "title": "Hashes", "items": [item]]
        server.route("/feed.json", Route(body: try JSONSerialization.data(withJSONObject: feed)))
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-log-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let log = scratch.appendingPathComponent("diagnostics.log").path

        // When the gallery shows it and quits
        let result = try await SpawnedProcess.run(
            [
                PinholeExecutable.path, "gallery", server.url("/feed.json").absoluteString, "--script",
                "ready,quit", "--log", log,
            ],
            environment: ["COLUMNS": "100", "LINES": "30", "XDG_DATA_HOME": scratch.path, "PATH": "/usr/bin:/bin"])
        await server.shutDown()

        // Then it quit cleanly, the item was shown, and the log names the ignored value
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Broken hash"))
        let logged = try await readText(atPath: log)
        #expect(logged.contains("feed item 7: _pinhole.thumbhash is not a base64 ThumbHash; ignored"), "\(logged)")
        #expect(!result.stdout.contains("_pinhole"))
    }

    @Test func aLogThatCannotBeOpenedIsAnErrorBeforeTheScreenIsTaken() async throws {
        // Given a log path in a directory that does not exist
        let log = "/nonexistent-\(UUID())/diagnostics.log"

        // When the gallery is started with it
        let result = try await SpawnedProcess.run(
            [PinholeExecutable.path, "gallery", "/nonexistent-feed.json", "--script", "quit", "--log", log],
            environment: ["COLUMNS": "100", "LINES": "30", "PATH": "/usr/bin:/bin"])

        // Then it exits 2 naming the log, and drew nothing
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot open the log \(log)"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}

/// What `--log` refuses, and what it never does to a file: truncate it, follow a link, wait for a reader.
@Suite(.timeLimit(scaledMinutes: 2))
struct GalleryLogFileTests {
    static func gallery(_ arguments: [String]) async throws -> SpawnedProcess.Result {
        try await SpawnedProcess.run(
            [PinholeExecutable.path, "gallery", "/nonexistent-feed.json", "--script", "quit"] + arguments,
            environment: ["COLUMNS": "100", "LINES": "30", "PATH": "/usr/bin:/bin"])
    }

    @Test(arguments: ["/dev/full", "/dev/null"])
    func aDeviceIsRefusedAsALogWithItsReason(path: String) async throws {
        // Given / When the gallery is given a device as its log (writes to /dev/full fail; FileHandle trapped)
        let result = try await Self.gallery(["--log", path])

        // Then it exits 2 saying it is not a regular file, and drew nothing
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot open the log \(path): not a regular file"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aFIFOWithoutAReaderIsRefusedAtOnce() async throws {
        // Given a FIFO nobody reads
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-fifo-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("log").path
        #expect(mkfifo(fifo, 0o600) == 0)

        // When / Then the gallery does not wait for a reader: it exits 2 with the reason
        let result = try await Self.gallery(["--log", fifo])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot open the log \(fifo):"), "\(result.stderr)")
    }

    @Test func anExistingLogIsAppendedToAndALinkIsNotFollowed() async throws {
        // Given a log that already holds a line, and a symbolic link to another file
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-append-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("diagnostics.log").path
        try await writeData(Data("earlier line\n".utf8), toPath: log)
        let victim = directory.appendingPathComponent("victim.txt").path
        try await writeData(Data("keep me\n".utf8), toPath: victim)
        let link = directory.appendingPathComponent("link.log").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)

        // When the gallery runs with each as its log
        let appended = try await Self.gallery(["--log", log])
        let linked = try await Self.gallery(["--log", link])

        // Then the old line is still there, the link is refused and its target untouched
        #expect(appended.status == 0, "\(appended.stderr)")
        #expect(try await readText(atPath: log).hasPrefix("earlier line\n"))
        #expect(linked.status == 2)
        #expect(linked.stderr.contains("cannot open the log \(link):"), "\(linked.stderr)")
        #expect(try await readText(atPath: victim) == "keep me\n")
    }
}
