import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// Usage errors, help and version of the built binary.
@Suite(.timeLimit(scaledMinutes: 1))
struct CommandLineEndToEndTests {
    @Test(arguments: [
        (["thumbnail", "--bogus", "x.jpg"], "unknown option '--bogus'"),
        (["thumbnail", "--size", "abc", "x.jpg"], "--size needs a whole number, not 'abc'"),
        (["thumbnail", "x.jpg", "--size"], "missing value"),
        (["thumbnail"], "no inputs"),
        (["thumbnail", "x.jpg", "--format", "bmp"], "--format must be one of jpeg, png, webp, gif"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        ([], "no command given"),
    ])
    func exitsWithTwoAndAMessageOnUsageErrors(arguments: [String], message: String) async throws {
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }

        let result = try await PinholeBinary.run(arguments, in: directory.path)

        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("--help"))
        #expect(result.stdout.isEmpty)
        #expect(directory.listing("").isEmpty, "nothing is written on a usage error")
    }

    @Test func thumbnailHelpDescribesEveryOption() async throws {
        let directory = FileManager.default.temporaryDirectory.path
        let result = try await PinholeBinary.run(["thumbnail", "--help"], in: directory)

        #expect(result.status == 0)
        for option in [
            "--size PIXELS", "--format FORMAT", "--quality Q", "--out DIR", "--jobs N",
            "--contact-sheet FILE", "--json", "--help",
        ] {
            #expect(result.stdout.contains("\n  \(option)"), "help lacks \(option)")
        }
        #expect(result.stdout.contains("skipped silently"))
    }

    @Test func topLevelHelpAndVersion() async throws {
        let directory = FileManager.default.temporaryDirectory.path
        let help = try await PinholeBinary.run(["--help"], in: directory)
        let version = try await PinholeBinary.run(["--version"], in: directory)

        #expect(help.status == 0 && help.stdout.contains("thumbnail"))
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("pinhole "))
        #expect(version.stdout.contains("libvips 8."), "\(version.stdout)")
    }

    @Test func theDebugVerbsTheREADMEUsesAreListedByHelp() async throws {
        // Given the binary
        let directory = FileManager.default.temporaryDirectory.path
        // When the top-level help, the debug help and an unknown debug verb are asked for
        let help = try await PinholeBinary.run(["--help"], in: directory)
        let debugHelp = try await PinholeBinary.run(["debug", "--help"], in: directory)
        let unknown = try await PinholeBinary.run(["debug", "no-such-verb"], in: directory)
        // Then the top level points to the debug verbs and every benchmark, the debug help lists each verb, and an
        // unknown verb is a usage error that points to the help
        #expect(help.stdout.contains("pinhole debug --help") && help.stdout.contains("bench sizes|download|batch"))
        #expect(debugHelp.status == 0, "\(debugHelp.stderr)")
        let verbs = [
            "memory-estimate", "storm", "disk-cache-writer", "disk-cache-check", "rss-many", "decode-warnings",
        ]
        for verb in verbs + ["dc-only-stream"] {
            #expect(debugHelp.stdout.contains("\n  \(verb)"), "debug help lacks \(verb)")
        }
        #expect(unknown.status == 2 && unknown.stderr.contains("pinhole debug --help"), "\(unknown.stderr)")
    }
}
