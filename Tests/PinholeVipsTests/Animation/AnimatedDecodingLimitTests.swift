import Foundation
import PinholeTestSupport
import Synchronization
import Testing

@testable import Pinhole
@testable import PinholeVips

/// `VipsDecoder`'s animation limits and failures: bombs refused from the header, a GIF cut short giving its whole
/// frames, formats an untrusted source may not use, and cancellation before and during the work.
@Suite(.timeLimit(scaledMinutes: 1))
struct AnimatedDecodingLimitTests {
    static func fixture(_ name: String) async throws -> Data {
        try await Fixtures.read(Fixtures.root.appendingPathComponent("animation/\(name)"))
    }

    static func code(of body: () async throws -> some Any) async -> PinholeError.Code? {
        do {
            _ = try await body()
            return nil
        } catch let error as PinholeError {
            return error.code
        } catch {
            return nil
        }
    }

    @Test func aGIFDeclaringTenThousandFramesIsRefusedFromItsHeader() async throws {
        // Given a 1×1 GIF of 10,000 frames, and the default limit of 1,000 frames
        let data = try await Self.fixture("bomb.gif")
        let options = DecodingOptions()
        // When its animation facts or its frames are asked for
        let info = await Self.code { try await VipsDecoder().animationInfo(data, options: options) }
        let frames = await Self.code { try await VipsDecoder().decodeFrames(data, range: 0..<2, options: options) }
        // Then both fail with tooManyFrames
        #expect(info == .tooManyFrames)
        #expect(frames == .tooManyFrames)
        // And the message does not claim the 4,097 frames libvips stops counting at are all there are
        let error = await #expect(throws: PinholeError.self) {
            try await VipsDecoder().animationInfo(data, options: options)
        }
        #expect(error?.message.contains("at least 4097 frames declared") == true, "\(String(describing: error))")
    }

    @Test func anAnimationOverItsPixelLimitOverAllFramesIsRefused() async throws {
        // Given 60 frames of 64×64 (245,760 pixels in all) and a limit of 200,000 over all frames
        let data = try await Self.fixture("sixty.gif")
        let options = DecodingOptions(maxAnimationPixelCount: 200_000)
        // When its facts or its first two frames are asked for, Then both fail with tooManyPixels
        #expect(await Self.code { try await VipsDecoder().animationInfo(data, options: options) } == .tooManyPixels)
        let frames = await Self.code { try await VipsDecoder().decodeFrames(data, range: 0..<2, options: options) }
        #expect(frames == .tooManyPixels)
    }

    @Test func framesUpscaledPastThePixelLimitAreRefusedBeforeAnyIsDecoded() async throws {
        // Given the 8×8 GIF asked for at 2,000 px with upscaling, and a limit of 1,000,000 pixels
        let data = try await Self.fixture("disposal.gif")
        let options = DecodingOptions(
            thumbnail: ThumbnailOptions(maxPixelSize: 2000, allowsUpscaling: true), maxPixelCount: 1_000_000)
        // When its frames are asked for, Then they fail with tooManyPixels (4,000,000 pixels a frame)
        let frames = await Self.code { try await VipsDecoder().decodeFrames(data, range: 0..<4, options: options) }
        #expect(frames == .tooManyPixels)
    }

    @Test func aGIFCutShortGivesItsWholeFramesAndSaysItEndsEarly() async throws {
        // Given the 4-frame disposal GIF cut in the middle of frame 2's pixels
        let data = try await Self.fixture("truncated.gif")
        // When its facts are read and its first three frames decoded
        let info = try #require(try await VipsDecoder().animationInfo(data, options: DecodingOptions()))
        let decoded = try await VipsDecoder().decodeFrames(data, range: 0..<3, options: DecodingOptions())
        // Then the header counts the frames it begins, and the decode gives frames 0 and 1, as the whole file does
        #expect(info.frameCount == 3)
        #expect(decoded.endsEarly)
        try #require(decoded.frames.count == 2)
        let pixel = decoded.frames[1].pixel(x: 1, y: 1)
        #expect([pixel.r, pixel.g, pixel.b] == [0, 255, 0])
        let whole = try await VipsDecoder().decodeFrames(
            try await Self.fixture("disposal.gif"), range: 0..<2, options: DecodingOptions())
        #expect(decoded.frames == whole.frames)
    }

    @Test func anUntrustedSourceMayNotAnimateAFormatItIsNotAllowed() async throws {
        // Given a GIF from an untrusted source that may send only JPEG and PNG
        let data = try await Self.fixture("sixty.gif")
        let options = DecodingOptions(untrustedFormats: [.jpeg, .png])
        // When its facts or frames are asked for, Then both fail with unsupportedFormat
        #expect(await Self.code { try await VipsDecoder().animationInfo(data, options: options) } == .unsupportedFormat)
        let frames = await Self.code { try await VipsDecoder().decodeFrames(data, range: 0..<2, options: options) }
        #expect(frames == .unsupportedFormat)
    }

    @Test func aFrameDecodeStoppedWhileRunningEndsAsCancelled() async throws {
        // Given a decoder whose frame decode is stopped as soon as it starts (as a task cancelled mid-decode is)
        var decoder = VipsDecoder()
        decoder.onDecodeStart = { $0.cancel() }
        let data = try await Self.fixture("sixty.gif")
        // When 60 frames are asked for, Then the decode ends with CancellationError, not frames or another error
        await #expect(throws: CancellationError.self) {
            try await decoder.decodeFrames(data, range: 0..<60, options: DecodingOptions())
        }
    }

    @Test func aFrameDecodeCancelledWhileQueuedNeverStarts() async throws {
        // Given a one-thread decoder whose thread is held until a frame decode is queued behind it and cancelled
        let pool = WorkerThreadPool(threadCount: 1, name: "frames-queue")
        let started = Atomic<Int>(0)
        var decoder = VipsDecoder(pool: pool)
        decoder.onDecodeStart = { _ in started.add(1, ordering: .relaxed) }
        let holding = Atomic<Bool>(false)
        let release = Atomic<Bool>(false)
        let holdBound = LoadFactor.scaled(.seconds(30))
        let blocker = Task {
            try await pool.run {
                holding.store(true, ordering: .releasing)
                let deadline = ContinuousClock.now + holdBound
                while !release.load(ordering: .acquiring), ContinuousClock.now < deadline {
                    Thread.sleep(forTimeInterval: 0.005)
                }
            }
        }
        let data = try await Self.fixture("sixty.gif")
        try #require(await eventually { holding.load(ordering: .acquiring) })
        let frames = Task { [decoder] in try await decoder.decodeFrames(data, range: 0..<60, options: DecodingOptions())
        }
        try #require(await eventually { pool.queuedCount == 1 })
        // When its task is cancelled and the thread then freed
        frames.cancel()
        let result = await frames.result
        release.store(true, ordering: .releasing)
        try await blocker.value
        // Then it ended as cancelled, and its decode never ran on the freed thread
        #expect(throws: CancellationError.self) { try result.get() }
        try await pool.run {}
        #expect(started.load(ordering: .relaxed) == 0)
    }
}
