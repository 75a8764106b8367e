import PinholeTestSupport
import Testing

@testable import PinholeGallery

/// Terminal columns of characters the gallery may show in titles and summaries, as a UTF-8 terminal's `wcwidth`
/// counts them.
@Suite(.timeLimit(scaledMinutes: 1))
struct TextWidthTests {
    @Test(arguments: [
        ("a", 1), ("é", 1), ("\u{AD}", 1), ("★", 1), ("✗", 1), ("→", 1), ("\u{0301}", 0), ("\u{200B}", 0),
        ("\u{20DD}", 0), ("\u{1161}", 0), ("\u{1B}", 0), ("日", 2), ("한", 2), ("Ａ", 2), ("🎉", 2),
        ("\u{1F680}", 2), ("\u{1F6F8}", 2), ("\u{1F7E5}", 2), ("\u{231A}", 2), ("\u{2705}", 2), ("\u{2B50}", 2),
        ("\u{1FA90}", 2),
    ])
    func countsColumnsAsATerminalDoes(_ text: String, _ expected: Int) {
        // Given one character
        // When its columns are counted
        let columns = TextWidth.columns(text)
        // Then they are the columns a terminal gives it
        #expect(columns == expected, "U+\(String(text.unicodeScalars.first!.value, radix: 16, uppercase: true))")
    }

    @Test func fitsARocketTitleInTwoColumnsPerRocket() {
        // Given a title of three rockets (U+1F680, two columns each: six in all)
        let title = "\u{1F680}\u{1F680}\u{1F680}"
        // When it is fitted to five columns
        let fitted = TextWidth.fit(title, to: 5)
        // Then two rockets fit with the ellipsis, and no space pads the line past five columns
        #expect(fitted == "\u{1F680}\u{1F680}…")
        #expect(TextWidth.columns(fitted) == 5)
    }
}
