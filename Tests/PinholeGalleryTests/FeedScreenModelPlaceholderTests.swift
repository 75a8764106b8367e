import Foundation
import Pinhole
import PinholeGallery
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// A feed item's `_pinhole.thumbhash` is drawn in its row, in every graphics mode, until the thumbnail arrives;
/// a hostile value is ignored with a line for the log.
@Suite(.timeLimit(scaledMinutes: 1))
@MainActor
struct FeedScreenModelPlaceholderTests {
    static let imageURL = URL(string: "https://img.example/gated/1.jpg")!
    /// An orange the fake image of ``imageURL`` is far from.
    static let orange = (r: 230.0, g: 120.0, b: 30.0)
    static let hash: ThumbHash = {
        let pixels = [UInt8]((0..<(40 * 30)).flatMap { _ in [UInt8(230), 120, 30] })
        return try! ThumbHash(encoding: PixelImage(width: 40, height: 30, pixelFormat: .rgb8, pixels: pixels))
    }()

    static func feed(_ pinhole: Any) -> Data {
        let item: [String: Any] = [
            "id": "1", "title": "Sunset", "image": imageURL.absoluteString, "_pinhole": pinhole,
        ]
        let document: [String: Any] = ["version": "https://jsonfeed.org/version/1.1", "title": "T", "items": [item]]
        return try! JSONSerialization.data(withJSONObject: document)
    }

    static func model(_ feed: Data, images: GatedDataLoader, mode: GraphicsMode = .symbols) -> FeedScreenModel {
        let (loader, _) = GalleryFixture.countingLoader(feed)
        return FeedScreenModel(
            feedURL: GalleryFixture.feedURL, loader: loader, pipeline: GalleryFixture.pipeline(images),
            favouritesStore: nil, locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC")!,
            size: TerminalSize(columns: 120, rows: 40), renderer: ChafaRenderer(mode: mode))
    }

    static func firstThumbnail(_ model: FeedScreenModel) -> ScreenState.Thumbnail? {
        guard case .list(let list) = model.screenState().content else { return nil }
        return list.rows.first?.thumbnail
    }

    /// The truecolor SGR colour (`38;2;R;G;B`, `48;2;R;G;B`) most often set in `lines`, black left out (libchafa
    /// sets a black foreground on cells it fills with spaces).
    static func dominantColour(_ lines: [String]) -> (r: Double, g: Double, b: Double)? {
        var counts: [[Int]: Int] = [:]
        for line in lines {
            for match in line.matches(of: /[34]8;2;(\d+);(\d+);(\d+)/) {
                let colour = [Int(match.1) ?? 0, Int(match.2) ?? 0, Int(match.3) ?? 0]
                if colour != [0, 0, 0] { counts[colour, default: 0] += 1 }
            }
        }
        guard let colour = counts.max(by: { $0.value < $1.value })?.key else { return nil }
        return (Double(colour[0]), Double(colour[1]), Double(colour[2]))
    }

    @Test(arguments: GraphicsMode.allCases)
    func theRowShowsThePlaceholderBeforeTheThumbnailThenTheThumbnail(_ mode: GraphicsMode) async throws {
        // Given a feed whose item carries a ThumbHash of an orange image, and a thumbnail that waits at the loader
        let fake = FakeImage.colour(for: Self.imageURL)
        let fakeColour = (r: Double(fake.r), g: Double(fake.g), b: Double(fake.b))
        try #require(ChafaFixtures.distance(fakeColour, Self.orange) > 80)
        let images = GatedDataLoader()
        defer { images.close() }
        let model = Self.model(Self.feed(["thumbhash": Self.hash.base64]), images: images, mode: mode)

        // When the feed is shown
        await model.load()

        // Then, while the thumbnail waits, the row draws the placeholder's picture in the thumbnail box
        #expect(model.rows.first?.placeholder == Self.hash)
        try #require(await eventually { images.waitingURLs.contains(Self.imageURL) })
        try #require(
            await eventually { if case .placeholder = Self.firstThumbnail(model) { true } else { false } })
        guard case .placeholder(let placeholder) = Self.firstThumbnail(model) else { return }
        #expect(placeholder.mode == mode)
        #expect(placeholder.columns == model.layout.thumbnailColumns && placeholder.rows == model.layout.rowHeight)
        #expect(!model.isSettled)
        if !mode.drawsPixels {
            let colour = try #require(Self.dominantColour(placeholder.lines))
            #expect(ChafaFixtures.distance(colour, Self.orange) < 40, "\(colour)")
            let screen = ScreenRenderer.render(model.screenState(), size: TerminalSize(columns: 120, rows: 40))
            #expect(screen.contains { $0.contains(placeholder.lines[0]) })
        }

        // And when the thumbnail arrives, the row draws it instead
        images.release(Self.imageURL)
        try #require(await eventually { if case .image = Self.firstThumbnail(model) { true } else { false } })
        guard case .image(let picture) = Self.firstThumbnail(model) else { return }
        #expect(picture != placeholder)
        #expect(model.isSettled)
        if !mode.drawsPixels {
            let colour = try #require(Self.dominantColour(picture.lines))
            #expect(ChafaFixtures.distance(colour, fakeColour) < 40, "\(colour)")
        }
    }

    /// The `_pinhole` values a hostile or broken feed may carry.
    static func hostile(_ name: String) -> Any {
        switch name {
        case "not base64": ["thumbhash": "!!not base64!!"]
        case "cut short": ["thumbhash": "AAAA"]
        case "bytes after the hash": ["thumbhash": Data(hash.bytes + [0, 0, 0]).base64EncodedString()]
        case "too long": ["thumbhash": String(repeating: "A", count: 4000)]
        case "not a string": ["thumbhash": 42]
        default: "3OcRJYB4"  // not an object
        }
    }

    @Test(arguments: ["not base64", "cut short", "bytes after the hash", "too long", "not a string", "not an object"])
    func aHostileThumbHashIsIgnoredAndLogged(_ name: String) async throws {
        // Given a feed whose item's extension is unusable
        let images = GatedDataLoader()
        defer { images.close() }
        let model = Self.model(Self.feed(Self.hostile(name)), images: images)
        var logged: [String] = []
        model.onLog = { logged += $0 }

        // When the feed is shown
        await model.load()

        // Then the item is shown without a placeholder, and one line for the log names it
        #expect(model.phase == .loaded)
        #expect(model.rows.count == 1)
        #expect(model.rows.first?.placeholder == nil)
        #expect(model.slot(forRow: 0)?.request?.placeholder == nil)
        #expect(logged.count == 1, "\(name): \(logged)")
        #expect(logged.first?.contains("feed item 1: _pinhole") == true, "\(logged)")
        #expect(model.feedDiagnostics == logged)
        try #require(await eventually { images.waitingURLs.contains(Self.imageURL) })
        #expect(Self.firstThumbnail(model) == .loading)
    }

    @Test func anUnknownExtensionKeyIsIgnoredSilently() async {
        // Given an item whose extension has no thumbhash, only a key of a later version
        let images = GatedDataLoader()
        defer { images.close() }
        let model = Self.model(Self.feed(["blurhash": "LEHV6nWB2yk8"]), images: images)
        var logged: [String] = []
        model.onLog = { logged += $0 }
        // When it is shown
        await model.load()
        // Then nothing is logged and there is no placeholder
        #expect(logged.isEmpty)
        #expect(model.rows.first?.placeholder == nil)
    }
}
