import Foundation
import PinholeGallery
import PinholeTestSupport
import Testing

@Suite(.timeLimit(scaledMinutes: 1))
struct GalleryLocaleTests {
    static let date = Date(timeIntervalSince1970: 1_772_619_630)  // 2026-03-04T10:20:30Z

    @Test(arguments: [
        (["LANG": "de_DE.UTF-8"], "de_DE"),
        (["LANG": "en_US.UTF-8", "LC_TIME": "fr_FR.UTF-8"], "fr_FR"),
        (["LANG": "en_US.UTF-8", "LC_TIME": "fr_FR.UTF-8", "LC_ALL": "de_AT.ISO-8859-1@euro"], "de_AT"),
        (["LC_ALL": "", "LANG": "sv_SE"], "sv_SE"),
        (["LANG": "C.UTF-8"], "en_US_POSIX"),
        ([:], "en_US_POSIX"),
    ])
    func localeComesFromLCAllThenLCTimeThenLang(_ environment: [String: String], _ identifier: String) {
        #expect(GalleryLocale.fromEnvironment(environment).identifier == identifier)
    }

    @Test func datesAreAbbreviatedInTheUsersLocale() {
        // Given one date and the German and American locales
        let utc = TimeZone(identifier: "UTC")!
        let german = GalleryLocale.dateStyle(
            locale: GalleryLocale.fromEnvironment(["LANG": "de_DE.UTF-8"]), timeZone: utc)
        let american = GalleryLocale.dateStyle(
            locale: GalleryLocale.fromEnvironment(["LANG": "en_US.UTF-8"]), timeZone: utc)
        // When it is formatted
        // Then each locale writes it its own way
        #expect(Self.date.formatted(american) == "Mar 4, 2026")
        #expect(Self.date.formatted(german) == "4. März 2026")
    }

    @Test func feedRowsCarryTheFormattedDate() throws {
        // Given a feed with a dated and an undated item
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "title": "T", "items": [
              {"id": "a", "title": "Dated\\nitem", "date_published": "2026-03-04T10:20:30Z"}, {"id": "b"}]}
            """
        let feed = try JSONFeed.decode(Data(json.utf8))
        // When rows are made in German
        let style = GalleryLocale.dateStyle(locale: Locale(identifier: "de_DE"), timeZone: TimeZone(identifier: "UTC")!)
        let rows = FeedRow.rows(of: feed, dateStyle: style)
        // Then dates are formatted, titles are on one line, and a missing date is empty
        #expect(rows.map(\.date) == ["4. März 2026", ""])
        #expect(rows[0].title == "Dated item")
    }
}
