import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import Testing

/// `pinhole thumbnail --untrusted`: files only under the allowed root, escapes refused with untrusted_source.
@Suite(.timeLimit(scaledMinutes: 1))
struct UntrustedThumbnailTests {
    @Test func onlyFilesInsideTheAllowedRootAreRead() async throws {
        // Given root/a.jpg, root/escape.jpg → ../outside.jpg, and root/sub/b.jpg
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.copyFixture("orient-1.jpg", to: "root/a.jpg")
        try directory.copyFixture("orient-6.jpg", to: "root/sub/b.jpg")
        try directory.copyFixture("p3-red.jpg", to: "outside.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: directory.file("root/escape.jpg"), withDestinationPath: "../outside.jpg")
        // When each is thumbnailed as untrusted with root as the allowed root
        let result = try await PinholeBinary.run(
            [
                "thumbnail", "root/a.jpg", "root/sub/b.jpg", "root/escape.jpg", "--untrusted", "--allowed-root", "root",
                "--out", "out", "--json",
            ],
            in: directory.path)
        let report = try JSONReport(result.stdout)
        // Then the two inside succeed and the escaping symlink is refused before it is read
        #expect(report.succeeded == 2)
        #expect(report.errors.map(\.input) == ["root/escape.jpg"])
        #expect(report.errors.first?.kind == "untrusted_source")
        let a = try await readData(atPath: directory.file("root/a.jpg"))
        let b = try await readData(atPath: directory.file("root/sub/b.jpg"))
        #expect(report.bytesIn == a.count + b.count)
        #expect(result.status == 1)
    }

    @Test func parentDirectoryAndOutsidePathsAreRefused() async throws {
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.copyFixture("orient-1.jpg", to: "root/a.jpg")
        try directory.copyFixture("p3-red.jpg", to: "outside.jpg")
        let result = try await PinholeBinary.run(
            ["thumbnail", "root/../outside.jpg", "--untrusted", "--allowed-root", "root", "--out", "out", "--json"],
            in: directory.path)
        let report = try JSONReport(result.stdout)
        #expect(report.succeeded == 0)
        #expect(report.errors.map(\.kind) == ["untrusted_source"])
    }

    @Test func withoutUntrustedTheSameFilesAreRead() async throws {
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.copyFixture("p3-red.jpg", to: "outside.jpg")
        try FileManager.default.createDirectory(atPath: directory.file("root"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: directory.file("root/escape.jpg"), withDestinationPath: "../outside.jpg")
        let result = try await PinholeBinary.run(
            ["thumbnail", "root/escape.jpg", "--out", "out", "--json"], in: directory.path)
        #expect(try JSONReport(result.stdout).succeeded == 1)
    }

    @Test func allowedRootWithoutUntrustedIsAUsageError() async throws {
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        let result = try await PinholeBinary.run(["thumbnail", "x.jpg", "--allowed-root", "."], in: directory.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--allowed-root needs --untrusted"))
    }
}

/// `--untrusted` URL inputs: the loopback test server is exactly what must be refused.
@Suite(.timeLimit(scaledMinutes: 1))
struct UntrustedURLThumbnailTests {
    @Test func loopbackURLsAreRefusedAndTheServerSeesNothing() async throws {
        // Given a healthy image on the loopback server, named in three spellings
        let server = try PinholeTestServer()
        let image = try await WorkerThreadPool.io.run { try Data(contentsOf: Fixtures.input("orient-1.jpg")) }
        server.route("/a.jpg", .image(image))
        let urls = ["127.0.0.1", "2130706433", "localhost"].map { "http://\($0):\(server.port)/a.jpg" }
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        // When they are thumbnailed as untrusted
        let result = try await PinholeBinary.run(
            ["thumbnail"] + urls + ["--untrusted", "--out", "out", "--json"], in: directory.path)
        // Then each is refused as untrusted, and no connection reached the server
        let report = try JSONReport(result.stdout)
        #expect(report.succeeded == 0)
        #expect(report.errors.map(\.kind) == ["untrusted_source", "untrusted_source", "untrusted_source"])
        #expect(server.stats.connectionsAccepted == 0)
        // And without --untrusted the same URL loads
        let trusted = try await PinholeBinary.run(["thumbnail", urls[0], "--out", "out", "--json"], in: directory.path)
        #expect(try JSONReport(trusted.stdout).succeeded == 1)
    }
}
