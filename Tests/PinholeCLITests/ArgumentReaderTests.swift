import PinholeTestSupport
import Testing

@testable import pinhole

@Suite(.timeLimit(scaledMinutes: 1))
struct ArgumentReaderTests {
    let reader = ArgumentReader(options: [
        .value("--size", "PIXELS", help: "size"),
        .value("--out", "DIR", help: "out"),
        .flag("--json", help: "json"),
        .flag("--help", help: "help"),
    ])

    @Test func separatesPositionalsValuesAndFlagsInAnyOrder() throws {
        // Given options before, between and after positionals
        let tokens = ["a.jpg", "--size", "200", "dir", "--json", "--out=o", "b.png"]

        // When read
        let parsed = try reader.read(tokens)

        // Then positionals keep their order and options are found in both forms
        #expect(parsed.positionals == ["a.jpg", "dir", "b.png"])
        #expect(parsed.values == ["--size": "200", "--out": "o"])
        #expect(parsed.flags == ["--json"])
    }

    @Test(arguments: [["--size", "300"], ["--size=300"]])
    func acceptsSpaceAndEqualsForms(tokens: [String]) throws {
        #expect(try reader.read(tokens).values["--size"] == "300")
    }

    @Test func takesEverythingAfterDoubleDashAsPositional() throws {
        // Given a file whose name looks like an option
        let parsed = try reader.read(["--json", "--", "--size", "-"])

        // Then it is positional
        #expect(parsed.positionals == ["--size", "-"])
        #expect(parsed.values.isEmpty)
    }

    @Test func treatsLoneDashAsPositionalAndShortHAsHelp() throws {
        let parsed = try reader.read(["-", "-h"])
        #expect(parsed.positionals == ["-"])
        #expect(parsed.has("--help"))
    }

    @Test func letsTheLastRepeatedValueWin() throws {
        #expect(try reader.read(["--size", "1", "--size=2"]).values["--size"] == "2")
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["-x"], "unknown option '-x'"),
        (["--siz=3"], "unknown option '--siz'"),
        (["a", "--size"], "--size PIXELS: missing value"),
        (["--size="], "--size needs a value"),
        (["--out", ""], "--out needs a value, not ''"),
        (["a", "--size", "", "b"], "--size needs a value, not ''"),
        (["--json=yes"], "--json takes no value"),
    ])
    func rejectsMalformedLinesWithAMessageNamingTheToken(tokens: [String], message: String) {
        #expect(throws: UsageError(message)) { try reader.read(tokens) }
    }

    @Test func convertsIntegersWithinRange() throws {
        let parsed = try reader.read(["--size", "42"])
        #expect(try parsed.integer("--size", default: 1, in: 1...100) == 42)
        #expect(try parsed.integer("--out", default: 7, in: 1...100) == 7)
    }

    @Test(arguments: [
        ("abc", "--size needs a whole number, not 'abc'"),
        ("1.5", "--size needs a whole number, not '1.5'"),
        ("0", "--size must be between 1 and 100, not 0"),
        ("101", "--size must be between 1 and 100, not 101"),
    ])
    func rejectsBadNumbers(value: String, message: String) throws {
        let parsed = try reader.read(["--size", value])
        #expect(throws: UsageError(message)) { try parsed.integer("--size", default: 1, in: 1...100) }
    }

    @Test func matchesChoicesCaseInsensitively() throws {
        let parsed = try reader.read(["--out", "PNG"])
        #expect(try parsed.choice("--out", default: "jpeg", in: ["jpeg", "png"]) == "png")
        let bad = try reader.read(["--out", "gif"])
        #expect(throws: UsageError("--out must be one of jpeg, png, not 'gif'")) {
            try bad.choice("--out", default: "jpeg", in: ["jpeg", "png"])
        }
    }
}
