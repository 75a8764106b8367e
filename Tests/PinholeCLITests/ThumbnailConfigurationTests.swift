import Pinhole
import PinholeTestSupport
import Testing

@testable import pinhole

@Suite(.timeLimit(scaledMinutes: 1))
struct ThumbnailConfigurationTests {
    typealias Configuration = ThumbnailCommand.Configuration

    @Test func usesTheDocumentedDefaults() throws {
        // When only an input is given
        let configuration = try Configuration.parse(["photos"])

        // Then every option has its documented default
        #expect(configuration.inputs == ["photos"])
        #expect(configuration.size == 360)
        #expect(configuration.format == .jpeg)
        #expect(configuration.fileExtension == "jpg")
        #expect(configuration.quality == 80)
        #expect(configuration.outputDirectory == "thumbnails")
        #expect(configuration.jobs >= 1)
        #expect(configuration.contactSheet == nil)
        #expect(!configuration.json)
    }

    @Test func readsEveryOption() throws {
        let configuration = try Configuration.parse([
            "a", "--size", "128", "--format=webp", "--quality", "55", "--out", "o", "--jobs", "3",
            "--contact-sheet", "sheet.PNG", "--json", "b",
        ])
        #expect(configuration.inputs == ["a", "b"])
        #expect(configuration.size == 128)
        #expect(configuration.format == .webp)
        #expect(configuration.fileExtension == "webp")
        #expect(configuration.quality == 55)
        #expect(configuration.outputDirectory == "o")
        #expect(configuration.jobs == 3)
        #expect(configuration.contactSheet == "sheet.PNG")
        #expect(configuration.json)
    }

    @Test(arguments: [
        ([], "no inputs: give at least one file, directory or URL, --feed or --input-list"),
        (["a", "--size", "abc"], "--size needs a whole number, not 'abc'"),
        (["a", "--size", "0"], "--size must be between 1 and 16384, not 0"),
        (["a", "--quality", "101"], "--quality must be between 1 and 100, not 101"),
        (["a", "--jobs", "0"], "--jobs must be between 1 and 256, not 0"),
        (["a", "--out", ""], "--out needs a value, not ''"),
        (["a", "--format", "bmp"], "--format must be one of jpeg, png, webp, gif, not 'bmp'"),
        (
            ["a", "--contact-sheet", "sheet.gif"],
            "--contact-sheet: unknown extension of 'sheet.gif' (use .jpg, .jpeg, .png or .webp)"
        ),
        (["a", "--verbose"], "unknown option '--verbose'"),
    ])
    func rejectsUsageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Configuration.parse(arguments) }
    }

    @Test(arguments: [("o/", "o"), ("a/b//", "a/b"), ("/", "/"), ("o", "o")])
    func dropsTrailingSlashesOfTheOutputDirectory(given: String, expected: String) throws {
        #expect(try Configuration.parse(["a", "--out", given]).outputDirectory == expected)
    }

    @Test func acceptsHelpWithoutInputs() throws {
        #expect(try Configuration.parse(["--help"]).showsHelp)
        #expect(try Configuration.parse(["-h"]).showsHelp)
    }

    @Test func helpDescribesEveryOption() {
        let help = Configuration.help
        for option in Configuration.options {
            #expect(help.contains(option.synopsis), "help lacks \(option.synopsis)")
        }
        #expect(help.contains("skipped"))
        #expect(help.contains("EXIT STATUS"))
    }

    @Test(arguments: [("s.jpg", ImageFormat.jpeg), ("s.JPEG", .jpeg), ("d/s.png", .png), ("s.webp", .webp)])
    func picksTheContactSheetFormatFromTheExtension(path: String, format: ImageFormat) {
        #expect(Configuration.contactSheetFormat(for: path) == format)
    }
}
