import Foundation
import Pinhole
import PinholeGallery
import PinholeTestFakes
import PinholeTestSupport
import PinholeVips
import Testing

/// Animated feed items in the model: the real decoder (libvips) plays `sixty.gif` (60 frames of 40 ms, each its own
/// grey with a white bar that moves) through the ticker, and libchafa draws each frame shown.
@MainActor
@Suite(.timeLimit(scaledMinutes: 2))
struct FeedScreenModelAnimationTests {
    nonisolated static let animation = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/animation/sixty.gif")
    nonisolated static let still = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/cases/inputs/baseline.jpg")

    /// A feed whose items' images are `/anim/N.gif` (item 1, and every item in `animated`) or `/still/N.jpg`.
    static func model(count: Int = 2, animated: Set<Int> = [1], plays: Bool = true) async throws -> FeedScreenModel {
        let (gif, jpeg) = try await WorkerThreadPool.io.run {
            (try Data(contentsOf: animation), try Data(contentsOf: still))
        }
        let items = (1...count).map { index -> [String: Any] in
            let path = animated.contains(index) ? "anim/\(index).gif" : "still/\(index).jpg"
            return ["id": "item-\(index)", "title": "Item \(index)", "image": "https://img.example/\(path)"]
        }
        let feed = try JSONSerialization.data(withJSONObject: [
            "version": "https://jsonfeed.org/version/1.1", "title": "Animations", "items": items,
        ])
        let images = GatedDataLoader { url in
            .success(DataResponse(data: url.path.hasPrefix("/anim/") ? gif : jpeg, url: url))
        }
        let pipeline = ImagePipeline(configuration: .init(decoder: VipsDecoder(), dataLoader: images))
        let model = FeedScreenModel(
            feedURL: GalleryFixture.feedURL, loader: { _ in feed }, pipeline: pipeline, favouritesStore: nil,
            locale: Locale(identifier: "en_US"), size: TerminalSize(columns: 120, rows: 40))
        model.playsAnimations = plays
        await model.load()
        try #require(await eventually(timeout: .seconds(20)) { model.isSettled })
        return model
    }

    static func picture(_ model: FeedScreenModel, row: Int) -> TerminalPicture? {
        guard case .list(let list) = model.screenState(status: "", spinnerFrame: 0).content,
            let shown = list.rows.first(where: { $0.index == row }), case .image(let picture) = shown.thumbnail
        else { return nil }
        return picture
    }

    /// Ticks the model's ticker every 100 ms of play (a time of the test's choosing, not the machine's), waiting
    /// after each tick until row 0 shows a picture not seen before (bounded); returns the pictures seen.
    static func play(_ model: FeedScreenModel, ticks: Int) async -> [TerminalPicture] {
        let start = ContinuousClock.now
        var seen: [TerminalPicture] = picture(model, row: 0).map { [$0] } ?? []
        for step in 0..<ticks {
            model.animationTicker.tick(at: start + .milliseconds(100 * step))
            _ = await eventually(timeout: .seconds(2)) {
                // A frame that arrives after the tick is shown on the next tick at the same time.
                model.animationTicker.tick(at: start + .milliseconds(100 * step))
                return picture(model, row: 0).map { !seen.contains($0) } ?? false
            }
            if let now = picture(model, row: 0), !seen.contains(now) { seen.append(now) }
        }
        return seen
    }

    @Test func animatedRowsPictureChangesWithItsFramesWhileAStillRowsStaysTheSame() async throws {
        // Given a list whose first row is an animated GIF and second a JPEG, both drawn
        let model = try await Self.model()
        let still = try #require(Self.picture(model, row: 1))
        #expect(model.slot(forRow: 0)?.request?.options.contains(.animated) == true)
        // When the ticker plays for 1 s of animation time
        let seen = await Self.play(model, ticks: 10)
        // Then the animated row showed several different pictures (its frames), and the still row the same one
        #expect(seen.count >= 4, "row 0 showed \(seen.count) different pictures")
        #expect(Self.picture(model, row: 1) == still)
        #expect(model.animationMetrics.framesShown >= 3)
        #expect(model.pipeline.metrics.framesDecoded >= 8)
    }

    @Test func withAnimationsOffTheAnimatedRowShowsItsFirstFrameOnly() async throws {
        // Given the same list with animations switched off
        let model = try await Self.model(plays: false)
        let first = try #require(Self.picture(model, row: 0))
        // When the ticker is driven as above
        let seen = await Self.play(model, ticks: 2)
        // Then row 0 keeps its first frame: its request is a still one and no frame was decoded
        #expect(seen == [first])
        #expect(model.slot(forRow: 0)?.request?.options.contains(.animated) == false)
        #expect(model.pipeline.metrics.framesDecoded == 0 && model.animationMetrics.animatingSlots == 0)
    }

    @Test func animationStopsWhenItsRowScrollsAway() async throws {
        // Given 30 items, the first animated, playing
        let model = try await Self.model(count: 30)
        _ = await Self.play(model, ticks: 2)
        #expect(model.animationMetrics.animatingSlots == 1)
        // When the list pages down past it
        model.handle(.pageDown)
        model.handle(.pageDown)
        // Then no slot animates and the next tick shows nothing
        #expect(model.boundRowIndices.contains(0) == false)
        model.animationTicker.tick(at: .now + .seconds(5))
        #expect(model.animationMetrics.animatingSlots == 0)
    }

    @Test func fullViewPlaysTheAnimation() async throws {
        // Given the animated item opened in the full view
        let model = try await Self.model()
        model.openFullView()
        try #require(await eventually(timeout: .seconds(20)) { model.isSettled })
        func fullPicture() -> TerminalPicture? {
            if case .fullView(let content) = model.screenState(status: "", spinnerFrame: 0).content,
                case .image(let picture) = content.row.thumbnail
            {
                return picture
            }
            return nil
        }
        let first = try #require(fullPicture())
        // When the ticker plays
        let start = ContinuousClock.now
        var changed = false
        for step in 1...10 where !changed {
            model.animationTicker.tick(at: start + .milliseconds(100 * step))
            changed = await eventually(timeout: .seconds(2)) {
                model.animationTicker.tick(at: start + .milliseconds(100 * step))
                return fullPicture().map { $0 != first } ?? false
            }
        }
        // Then the full view's picture changed to a later frame
        #expect(changed)
    }
}
