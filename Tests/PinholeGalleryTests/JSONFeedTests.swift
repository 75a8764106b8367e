import Foundation
import PinholeGallery
import PinholeTestSupport
import Testing

@Suite(.timeLimit(scaledMinutes: 1))
struct JSONFeedTests {
    @Test func decodesItemsWithImagesAndDates() throws {
        // Given a JSON Feed 1.1 document
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "title": "Photos",
             "items": [
               {"id": "1", "title": "Kite", "image": "https://img.example/kite.jpg",
                "date_published": "2026-03-04T10:20:30Z", "summary": "A kite"},
               {"id": 2, "title": "Path", "banner_image": "https://img.example/path.jpg",
                "date_modified": "2026-03-05T08:00:00.250+01:00"},
               {"id": "3"}
             ]}
            """
        // When it is decoded
        let feed = try JSONFeed.decode(Data(json.utf8))
        // Then items keep their order, ids, images and dates
        #expect(feed.title == "Photos")
        #expect(feed.items.map(\.id) == ["1", "2", "3"])
        #expect(feed.items[0].image?.absoluteString == "https://img.example/kite.jpg")
        #expect(feed.items[1].image?.absoluteString == "https://img.example/path.jpg")
        #expect(feed.items[0].date == Date(timeIntervalSince1970: 1_772_619_630))
        #expect(feed.items[1].date != nil)
        #expect(feed.items[2].title == "")
        #expect(feed.items[2].image == nil)
    }

    @Test func notJSONIsInvalidJSON() {
        #expect(throws: FeedError(.invalidJSON, "the feed is not valid JSON")) {
            try JSONFeed.decode(Data("<html>".utf8))
        }
    }

    @Test func jsonWithoutAFeedVersionIsNotAFeed() {
        do {
            _ = try JSONFeed.decode(Data(#"{"items": []}"#.utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .notAFeed)
        }
    }

    @Test func itemsThatAreNotAnArrayAreNotAFeed() {
        do {
            _ = try JSONFeed.decode(Data(#"{"version": "https://jsonfeed.org/version/1", "items": 3}"#.utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .notAFeed)
        }
    }
}
