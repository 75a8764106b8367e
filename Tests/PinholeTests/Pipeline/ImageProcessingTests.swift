import Foundation
import PinholeShared
import PinholeTestSupport
import Testing

@testable import Pinhole

/// `ImageProcessors.apply`: processors run in order, on the CPU executor's threads, and stop on cancellation.
@Suite(.timeLimit(scaledMinutes: 1))
struct ImageProcessingTests {
    /// Appends its tag as one more pixel row value and records the thread it ran on.
    struct Tagging: ImageProcessing {
        let tag: UInt8
        let recorder: Recorder

        var identifier: String { "test.tag(\(tag))" }

        /// The calling thread's identity. (Names do not tell: the pool's threads keep their creator's kernel name.)
        static func threadName() -> String { "\(pthread_self())" }

        func process(_ image: PixelImage) throws -> PixelImage {
            recorder.threads.withLock { $0.append(Self.threadName()) }
            return PixelImage(width: image.width + 1, height: 1, pixelFormat: .gray8, pixels: image.pixels + [tag])
        }
    }

    final class Recorder: Sendable {
        let threads = Locked<[String]>([])
    }

    static let one = PixelImage(width: 1, height: 1, pixelFormat: .gray8, pixels: [7])

    @Test func processorsRunInOrderOnThePoolThreads() async throws {
        // Given two processors and a pool of its own
        let pool = WorkerThreadPool(threadCount: 1, name: "proc-test")
        let recorder = Recorder()
        let processors: [any ImageProcessing] = [
            Tagging(tag: 1, recorder: recorder), Tagging(tag: 2, recorder: recorder),
        ]
        // When applied
        let poolThread = try await pool.run { Tagging.threadName() }
        let result = try await ImageProcessors.apply(processors, to: Self.one, on: pool)
        // Then each ran once, in order, on the pool's thread (never on the cooperative pool)
        #expect(result.pixels == [7, 1, 2])
        #expect(recorder.threads.withLock { $0 } == [poolThread, poolThread])
        #expect(ImageProcessors.identifier(of: processors) == "test.tag(1)|test.tag(2)")
    }

    @Test func noProcessorsGiveTheImageBack() async throws {
        #expect(try await ImageProcessors.apply([], to: Self.one) == Self.one)
        #expect(ImageProcessors.identifier(of: []) == "")
    }

    @Test func aCancelledCallerRunsNoProcessor() async throws {
        // Given a caller that is already cancelled
        let recorder = Recorder()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await ImageProcessors.apply([Tagging(tag: 1, recorder: recorder)], to: Self.one)
        }
        // When it applies a processor, Then it gets CancellationError and the processor never ran
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(recorder.threads.withLock { $0 }.isEmpty)
    }
}
