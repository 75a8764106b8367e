import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// The decoder's command-line cases of the third case set (Tests/Fixtures/cases-s3): S306a, an Xcode-"crushed"
/// iPhone PNG (CgBI) libvips cannot read, and S304d, a bare JPEG XL codestream, each run through the built binary
/// as a file named on the command line and as a file found in a directory by its content.
@Suite(.timeLimit(scaledMinutes: 2))
struct ManifestS3CommandLineTests {
    /// Copies `Tests/Fixtures/cases-s3/inputs/<name>` to `relative` in `directory`.
    private func copyInput(_ name: String, to relative: String, in directory: TemporaryDirectory) async throws {
        let source = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/cases-s3/inputs/\(name)").path
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: directory.file(relative)).deletingLastPathComponent().path,
            withIntermediateDirectories: true)
        try await writeData(try await readData(atPath: source), toPath: directory.file(relative))
    }

    @Test func s306aTheCgBIPNGFailsSayingWhy() async throws {
        // Given the CgBI PNG
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try await copyInput("s306a-cgbi-iphone.png", to: "s306a.png", in: directory)

        // When it is thumbnailed
        let result = try await PinholeBinary.run(
            ["thumbnail", "s306a.png", "--out", "out", "--json"],
            in: directory.path)

        // Then the run fails with decoding_failed, and the message carries libpng's reason (from a libvips warning)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let report = try JSONReport(result.stdout)
        let failure = try #require(report.errors.first, "stdout: \(result.stdout)")
        #expect(failure.kind == "decoding_failed")
        #expect(
            failure.message.range(
                of: "cgbi|apple|iphone|critical chunk",
                options: [.regularExpression, .caseInsensitive]) != nil, "\(failure.message)")
        #expect(!failure.message.contains("no message from libvips"), "\(failure.message)")
    }

    @Test func s304dTheJPEGXLCodestreamIsThumbnailedNamedOrFoundInADirectory() async throws {
        // Given the bare JPEG XL codestream, once on its own and once in a directory next to nothing else
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try await copyInput("s304d-jxl-codestream.jxl", to: "s304d.jxl", in: directory)
        try await copyInput("s304d-jxl-codestream.jxl", to: "photos/picture", in: directory)

        // When the file is thumbnailed, and the directory
        let named = try await PinholeBinary.run(["thumbnail", "s304d.jxl", "--out", "a", "--json"], in: directory.path)
        let found = try await PinholeBinary.run(["thumbnail", "photos", "--out", "b", "--json"], in: directory.path)

        // Then both give the manifest's 160×120 thumbnail (the directory scan recognised it by its content)
        for result in [named, found] {
            #expect(result.status == 0, "stdout: \(result.stdout) stderr: \(result.stderr)")
            let report = try JSONReport(result.stdout)
            #expect(report.outputs.map { [$0.width, $0.height] } == [[160, 120]], "\(result.stdout)")
        }
    }

    @Test func s304dAnUntrustedRunRefusesJPEGXLByName() async throws {
        // Given the JPEG XL codestream inside the allowed root
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try await copyInput("s304d-jxl-codestream.jxl", to: "root/s304d.jxl", in: directory)

        // When it is thumbnailed as untrusted
        let result = try await PinholeBinary.run(
            ["thumbnail", "root/s304d.jxl", "--untrusted", "--allowed-root", "root", "--out", "out", "--json"],
            in: directory.path)

        // Then it fails as unsupported_format, saying it is JPEG XL
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let report = try JSONReport(result.stdout)
        let failure = try #require(report.errors.first, "stdout: \(result.stdout)")
        #expect(failure.kind == "unsupported_format")
        #expect(failure.message.contains("JPEG XL"), "\(failure.message)")
    }
}
