import Foundation
import Pinhole
import PinholeCurl
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import Testing

@testable import pinhole

/// The demo feed's animated items: items 3, 13, 23… are the GIF and WebP files of the `animated` directory next to
/// the corpus, served over loopback with their own content type; without that directory every item is a photo.
@Suite(.timeLimit(scaledMinutes: 1))
struct DemoFeedAnimationTests {
    struct Feed: Decodable {
        struct Item: Decodable {
            var title: String
            var image: String
        }
        var items: [Item]
    }

    /// A corpus of two JPEGs in `root/corpus`, and, when `animated`, `root/animated` with a GIF and a WebP.
    static func makeCorpus(animated: Bool) async throws -> TemporaryDirectory {
        let root = try TemporaryDirectory(prefix: "pinhole-demo-feed")
        for name in ["baseline.jpg", "orient-1.jpg"] {
            try root.write(try await readData(atPath: Fixtures.input(name).path), to: "corpus/\(name)")
        }
        if animated {
            for name in ["sixty.gif", "blend.webp"] {
                let source = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/animation/\(name)")
                try root.write(try await readData(atPath: source.path), to: "animated/\(name)")
            }
        }
        return root
    }

    /// The body and content type of `url`, fetched with the pipeline's own HTTP client (libcurl).
    static func get(_ url: URL) async throws -> (Data, String?) {
        var configuration = HTTPDataLoader.Configuration()
        configuration.requiresImageContent = false  // the feed is JSON
        let response = try await HTTPDataLoader(configuration: configuration).loadData(for: DataRequest(url: url))
        return (response.data, response.headers["content-type"])
    }

    @Test func everyTenthItemFromTheThirdIsAnAnimationServedWithItsType() async throws {
        // Given a corpus with two animations next to it
        let root = try await Self.makeCorpus(animated: true)
        let demo = try await DemoFeed.start(
            corpus: root.fileURL("corpus"), itemCount: 25, thumbHashCache: root.fileURL("hashes.json"))
        defer { Task.detached { demo.stop() } }
        // When the feed is read
        let feed = try JSONDecoder().decode(Feed.self, from: try await Self.get(demo.feedURL).0)
        // Then items 3, 13 and 23 are the WebP, the GIF and the WebP again (sorted: blend.webp, sixty.gif)
        #expect(feed.items.count == 25)
        let animated = feed.items.enumerated().filter { $0.element.image.contains("/anim/") }.map(\.offset)
        #expect(animated == [2, 12, 22])
        #expect(feed.items[2].image.hasSuffix("/anim/3/blend.webp") && feed.items[12].image.hasSuffix("sixty.gif"))
        #expect(feed.items[12].title == "Sixty (animated GIF) #13")
        // And they are served byte for byte with their own content types; photos still as JPEG
        let (gif, gifType) = try await Self.get(try #require(URL(string: feed.items[12].image)))
        #expect(gifType == "image/gif")
        let gifFile = try await readData(atPath: root.file("animated/sixty.gif"))
        #expect(gif == gifFile)
        let (webp, webpType) = try await Self.get(try #require(URL(string: feed.items[2].image)))
        let webpFile = try await readData(atPath: root.file("animated/blend.webp"))
        #expect(webpType == "image/webp" && webp == webpFile)
        let photoType = try await Self.get(try #require(URL(string: feed.items[0].image))).1
        #expect(photoType == "image/jpeg")
        // And a file that is not one of the animations is not served from that directory
        let error = await #expect(throws: PinholeError.self) {
            _ = try await Self.get(demo.server.url("/anim/3/..%2Fcorpus%2Fbaseline.jpg"))
        }
        #expect(error?.code == .httpStatus)
    }

    @Test func withoutAnAnimatedDirectoryEveryItemIsAPhoto() async throws {
        let root = try await Self.makeCorpus(animated: false)
        let demo = try await DemoFeed.start(
            corpus: root.fileURL("corpus"), itemCount: 25, thumbHashCache: root.fileURL("hashes.json"))
        defer { Task.detached { demo.stop() } }
        let feed = try JSONDecoder().decode(Feed.self, from: try await Self.get(demo.feedURL).0)
        #expect(feed.items.count == 25 && feed.items.allSatisfy { $0.image.contains("/img/") })
    }
}
