import Foundation
import PinholeShared
import PinholeTestSupport
import PinholeVips
import Synchronization
import Testing

@testable import Pinhole

/// A running libvips decode stops when its task is cancelled and when it uses up the decoder's CPU time limit, and
/// its thread is free at once for the next decode.
///
/// The slow input is a 16,000 × 16,000 16-bit PNG (1.5 GB of pixel data in 6 MB, ``SlowPNG``) thumbnailed to
/// 256 px: seconds of work, reading its input in about 1,500 reads of 4 KiB (each a chance to stop). Progress is
/// read from the decode's own count of reads and tiles, never from wall-clock speed: the machine may be loaded.
@Suite(.timeLimit(scaledMinutes: 2))
struct DecodeInterruptionTests {
    static let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 256), maxPixelCount: 300_000_000)
    /// Made once; a `Data` is made from it for each use (a `Data` kept in a static was reported by LeakSanitizer as
    /// a leak of Foundation's, at exit).
    static let slowPNGBytes = SlowPNG.make(side: 16_000)
    static var slowPNG: Data { Data(slowPNGBytes) }
    /// Reads of 4 KiB that a whole decode of ``slowPNG`` needs: at least one progress tick each.
    static var totalTicks: Int { slowPNGBytes.count / 4096 }

    /// A one-thread decoder named `name` that hands each decode's stop switch to `switches`.
    static func decoder(_ name: String, timeLimit: Duration = .seconds(60), switches: Switches) -> VipsDecoder {
        var decoder = VipsDecoder(pool: WorkerThreadPool(threadCount: 1, name: name), decodeTimeLimit: timeLimit)
        decoder.onDecodeStart = switches.append
        return decoder
    }

    /// Waits (at most 60 s × the load factor) until the first decode has reported `ticks` tiles done.
    static func waitForTicks(_ ticks: Int, of switches: Switches) async -> Bool {
        await eventually(timeout: .seconds(60)) { (switches.first?.ticks ?? 0) >= ticks }
    }

    @Test func cancellingARunningDecodeFreesItsThreadAtOnce() async throws {
        // Given a decoder with one thread of its own, 100 reads into thumbnailing the slow PNG (of about 1,500)
        let switches = Switches()
        let decoder = Self.decoder("png-cancel", switches: switches)
        let decode = Task { try await decoder.decode(Self.slowPNG, options: Self.options) }
        defer { decode.cancel() }
        try #require(await Self.waitForTicks(100, of: switches))
        let running = try #require(switches.first)

        // When its task is cancelled
        let ticksAtCancel = running.ticks
        decode.cancel()

        // Then libvips stopped within a read or two, and the thread took the next job while the decode was still
        // where it stopped (read from the decode's own count of reads: no wall-clock bound, the machine may be
        // loaded), far from the ~1,500 reads of a whole decode; and the decode ends as cancelled
        let ticksWhenFree = try await decoder.pool.run { running.ticks }
        #expect(ticksWhenFree - ticksAtCancel <= 3, "\(ticksWhenFree - ticksAtCancel) more reads after cancellation")
        #expect(ticksWhenFree < Self.totalTicks)
        let result = await decode.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test func aDecodePastItsTimeLimitStopsWithDecodingTimedOut() async throws {
        // Given a one-thread decoder whose time limit is 300 ms of CPU time
        let switches = Switches()
        let decoder = Self.decoder("png-limit", timeLimit: .milliseconds(300), switches: switches)

        // When it thumbnails the slow PNG (seconds of CPU time)
        let error = await #expect(throws: PinholeError.self) {
            _ = try await decoder.decode(Self.slowPNG, options: Self.options)
        }

        // Then it stops with decoding_timed_out long before its last read, and its thread is free
        #expect(error?.code == .decodingTimedOut, "\(String(describing: error))")
        #expect(error?.code.kind == "decoding_timed_out")
        let ticks = try #require(switches.first).ticks
        #expect(ticks < Self.totalTicks, "\(ticks) reads of about \(Self.totalTicks) were made")
        #expect(try await decoder.pool.run { true })
    }

    @Test func decodesTheSlowInputWhenLeftAlone() async throws {
        // Given a decoder whose time limit is far away
        let switches = Switches()
        let decoder = Self.decoder("png-whole", switches: switches)

        // When it thumbnails the slow PNG, Then all of it is read and the picture made: the input is valid, only slow
        let decoded = try await decoder.decode(Self.slowPNG, options: Self.options)
        #expect(decoded.image.width == 256 && decoded.image.height == 256)
        #expect(decoded.image.pixel(x: 128, y: 128) == PixelImage.RGBA(r: 0, g: 0, b: 0))
        #expect(try #require(switches.first).ticks >= Self.totalTicks)
    }

    @Test func theTimeLimitCountsNoTimeSpentWaitingForAThread() async throws {
        // Given a one-thread decoder with a 2 s time limit, its thread held by other work until a decode is queued
        // behind it and for 2.5 s more (a sleep on the pool's own thread, not on Swift's cooperative pool)
        let pool = WorkerThreadPool(threadCount: 1, name: "jpeg-queue")
        let decoder = VipsDecoder(pool: pool, decodeTimeLimit: .seconds(2))
        let blockerStarted = Atomic<Bool>(false)
        let holdBound = LoadFactor.scaled(.seconds(60))
        let blocker = Task {
            try await pool.run {
                blockerStarted.store(true, ordering: .releasing)
                let deadline = ContinuousClock.now + holdBound
                while pool.queuedCount == 0, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
                Thread.sleep(forTimeInterval: 2.5)
            }
        }
        defer { blocker.cancel() }
        let data = try await Fixtures.caseFile("inputs/baseline.jpg")
        try #require(await eventually { blockerStarted.load(ordering: .acquiring) })

        // When a quick decode waits for the thread, Then it is not timed out: only its own CPU time counts
        let decoded = try await decoder.decode(data, options: DecodingOptions(thumbnail: .init(maxPixelSize: 64)))
        #expect(decoded.image.width == 64)
        try await blocker.cancellableValue
    }
}

/// Collects the stop switches a decoder hands out (thread-safe).
final class Switches: Sendable {
    private let storage = Locked<[DecodeInterruption]>([])

    @Sendable func append(_ interruption: DecodeInterruption) { storage.withLock { $0.append(interruption) } }

    var first: DecodeInterruption? { storage.withLock { $0.first } }
}
