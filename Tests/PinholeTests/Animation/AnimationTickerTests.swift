import Foundation
import PinholeTestSupport
import Testing

@testable import Pinhole

/// ``AnimationTicker`` driving ``ImageSlot`` frames from one clock: a late tick skips frames instead of slowing
/// the animation, a slot that stops (cancelled, out of sight, reused, bound to another request) shows no more
/// frames, and a frame the budget does not hold is asked for and shown once it comes. The ticker is driven by
/// hand (`tick(at:)` with chosen instants): no test depends on how fast the machine is.
@MainActor
@Suite(.timeLimit(scaledMinutes: 1))
struct AnimationTickerTests {
    /// A slot showing the fake animation of `tag` (`frames` frames of 100 ms), on `ticker`, every frame decoded
    /// unless `prefetched` is `false`.
    static func playingSlot(
        tag: Int, ticker: AnimationTicker, pipeline: ImagePipeline, frames: Int = 12, prefetched: Bool = true
    ) async throws -> (ImageSlot, AnimatedImage) {
        let slot = ImageSlot(pipeline: pipeline)
        slot.animationTicker = ticker
        slot.load(AnimatedImageBudgetTests.request(frames: frames, tag: tag))
        try #require(await eventually { @MainActor in slot.phase.response != nil })
        let animation = try #require(slot.phase.response?.animation)
        if prefetched {
            for index in 0..<frames { _ = try await animation.frame(at: index) }
        }
        return (slot, animation)
    }

    static func pipeline() -> ImagePipeline {
        ImagePipeline(configuration: .init(decoder: FakeAnimationDecoder()))
    }

    /// The value every pixel of `slot`'s image has, or `nil` when they differ or there is no image.
    static func shownValue(_ slot: ImageSlot) -> UInt8? {
        guard let pixels = slot.image?.pixels, let first = pixels.first, pixels.allSatisfy({ $0 == first }) else {
            return nil
        }
        return first
    }

    @Test func aLateTickShowsTheFrameThatIsDueAndCountsTheFramesItSkipped() async throws {
        // Given a slot playing 12 frames of 100 ms, first ticked at t0
        let ticker = AnimationTicker()
        let (slot, _) = try await Self.playingSlot(tag: 1, ticker: ticker, pipeline: Self.pipeline())
        let t0 = ContinuousClock.now
        ticker.tick(at: t0)
        #expect(slot.frameIndex == 0)
        #expect(Self.shownValue(slot) == FakeAnimationDecoder.value(tag: 1, frame: 0))
        // When the next tick comes 550 ms later (the main actor was busy for five frames' time)
        ticker.tick(at: t0 + .milliseconds(550))
        // Then the slot shows frame 5, the one due, and the four it never showed are counted as skipped
        #expect(slot.frameIndex == 5)
        #expect(Self.shownValue(slot) == FakeAnimationDecoder.value(tag: 1, frame: 5))
        #expect(ticker.metrics.framesShown == 1)
        #expect(ticker.metrics.framesSkipped == 4)
        // And the animation's time, not the tick count, decides the next: at 1,250 ms the second play's frame 0
        ticker.tick(at: t0 + .milliseconds(1250))
        #expect(slot.frameIndex == 0)
        #expect(Self.shownValue(slot) == FakeAnimationDecoder.value(tag: 1, frame: 0))
        #expect(ticker.metrics.framesSkipped == 4 + 6)
    }

    @Test func twoSlotsOnOneTickerEachShowTheirOwnAnimationsFrame() async throws {
        // Given two slots of different sources on one ticker, started by the same tick
        let ticker = AnimationTicker()
        let pipeline = Self.pipeline()
        let (first, _) = try await Self.playingSlot(tag: 1, ticker: ticker, pipeline: pipeline)
        let (second, _) = try await Self.playingSlot(tag: 2, ticker: ticker, pipeline: pipeline)
        let t0 = ContinuousClock.now
        ticker.tick(at: t0)
        // When one tick 320 ms later comes
        ticker.tick(at: t0 + .milliseconds(320))
        // Then each shows frame 3 of its own source, and the ticker counts two animating slots
        #expect(Self.shownValue(first) == FakeAnimationDecoder.value(tag: 1, frame: 3))
        #expect(Self.shownValue(second) == FakeAnimationDecoder.value(tag: 2, frame: 3))
        #expect(ticker.metrics.animatingSlots == 2)
        #expect(ticker.nextDeadline == t0 + .milliseconds(400))
    }

    @Test(arguments: ["cancel", "disappear", "prepareForReuse", "load"])
    func aSlotThatStopsShowsNoMoreFrames(by action: String) async throws {
        // Given a playing slot at frame 2
        let ticker = AnimationTicker()
        let pipeline = Self.pipeline()
        let (slot, _) = try await Self.playingSlot(tag: 3, ticker: ticker, pipeline: pipeline)
        let t0 = ContinuousClock.now
        ticker.tick(at: t0)
        ticker.tick(at: t0 + .milliseconds(250))
        try #require(slot.frameIndex == 2)
        let shownBefore = ticker.metrics.framesShown
        // When it is cancelled, goes out of sight (keeping its load), is reused, or is bound to a still
        switch action {
        case "cancel": slot.cancel()
        case "disappear":
            slot.disappearBehavior = .lowerPriority(to: .veryLow)
            slot.disappear()
        case "prepareForReuse": slot.prepareForReuse()
        default: slot.load(AnimatedImageBudgetTests.request(frames: 12, tag: 4, options: []))
        }
        // Then the ticker drops it, and a tick 300 ms later shows nothing of the animation in it
        #expect(ticker.metrics.animatingSlots == 0)
        #expect(slot.frameIndex == nil)
        ticker.tick(at: t0 + .milliseconds(550))
        #expect(slot.frameIndex == nil)
        #expect(ticker.metrics.framesShown == shownBefore)
        for index in 1..<12 {
            #expect(Self.shownValue(slot) != FakeAnimationDecoder.value(tag: 3, frame: index))
        }
    }

    @Test func aSlotInSightAgainPlaysFromItsFirstFrame() async throws {
        // Given a slot that played to frame 4 and went out of sight with its load kept
        let ticker = AnimationTicker()
        let (slot, _) = try await Self.playingSlot(tag: 5, ticker: ticker, pipeline: Self.pipeline())
        slot.disappearBehavior = .lowerPriority(to: .veryLow)
        let t0 = ContinuousClock.now
        ticker.tick(at: t0)
        ticker.tick(at: t0 + .milliseconds(450))
        slot.disappear()
        // When it appears again and is ticked from a new start
        slot.appear()
        let t1 = t0 + .seconds(5)
        ticker.tick(at: t1)
        #expect(slot.frameIndex == 0)
        ticker.tick(at: t1 + .milliseconds(150))
        // Then it plays from frame 0 on the new start: frame 1 at 150 ms
        #expect(slot.frameIndex == 1)
        #expect(Self.shownValue(slot) == FakeAnimationDecoder.value(tag: 5, frame: 1))
    }

    @Test func aFrameTheBudgetDoesNotHoldIsAskedForAndShownWhenItComes() async throws {
        // Given a slot of 24 frames whose frames past the first were never decoded (a run is 8 frames at most)
        let ticker = AnimationTicker()
        let (slot, animation) = try await Self.playingSlot(
            tag: 6, ticker: ticker, pipeline: Self.pipeline(), frames: 24, prefetched: false)
        let t0 = ContinuousClock.now
        ticker.tick(at: t0)
        try #require(animation.cachedFrame(at: 20) == nil)
        // When frame 20 is due and the host keeps ticking at that animation time (as frames come, the ticker is
        // woken: here the test ticks itself)
        let due = t0 + .milliseconds(2050)
        ticker.tick(at: due)
        #expect(slot.frameIndex == 0)
        #expect(ticker.metrics.framesRequested >= 1)
        let shown = await eventually { @MainActor in
            ticker.tick(at: due + .milliseconds(10))
            return slot.frameIndex == 20
        }
        // Then it is decoded and shown, the slot keeping frame 0 until then
        #expect(shown)
        #expect(Self.shownValue(slot) == FakeAnimationDecoder.value(tag: 6, frame: 20))
    }

    @Test func theOwnLoopChangesTheFrameOverTimeAndStops() async throws {
        // Given a playing slot on a ticker that runs its own loop
        let ticker = AnimationTicker()
        let (slot, _) = try await Self.playingSlot(tag: 7, ticker: ticker, pipeline: Self.pipeline())
        ticker.start()
        // When time passes, Then the frame changes on its own
        try #require(await eventually { @MainActor in (slot.frameIndex ?? 0) > 0 })
        // And once stopped, no tick comes any more
        ticker.stop()
        let ticks = ticker.metrics.ticks
        try await Task.sleep(for: .milliseconds(300))
        #expect(ticker.metrics.ticks == ticks)
    }
}
