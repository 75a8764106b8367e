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
