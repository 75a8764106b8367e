import Foundation
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

/// Hostile DNS (lookups that hang) under an untrusted policy: it must hold neither the threads file reads and the
/// disk cache use (``WorkerThreadPool/io``) nor the caller that gave up on it.
@Suite(.timeLimit(scaledMinutes: 1))
struct SlowDNSIsolationTests {
    /// A resolver whose lookups block their thread until ``release()`` (a hostile DNS server that never answers).
    final class HangingResolver: HostResolving {
        private let condition = NSCondition()
        private let state = Locked((released: false, waiting: 0))

        var waiting: Int { state.withLock { $0.waiting } }

        func resolve(_ host: String) throws -> [IPAddress] {
            state.withLock { $0.waiting += 1 }
            condition.lock()
            while !state.withLock({ $0.released }) { condition.wait() }
            condition.unlock()
            state.withLock { $0.waiting -= 1 }
            throw PinholeError(.networkFailure, "cannot resolve \(host)")
        }

        func release() {
            condition.lock()
            state.withLock { $0.released = true }
            condition.broadcast()
            condition.unlock()
        }
    }

    @Test func hangingLookupsHoldNeitherFileReadsNorTheCallersThatLeave() async throws {
        // Given an untrusted pipeline whose every name lookup hangs, and as many lookups started as the I/O pool
        // has threads
        let resolver = HangingResolver()
        defer { resolver.release() }
        var configuration = ImagePipeline.Configuration(decoder: PayloadDecoder(), dataLoader: VersionedLoader())
        configuration.sourcePolicy = .untrusted(allowedFileRoot: nil)
        configuration.hostResolver = resolver
        let pipeline = ImagePipeline(configuration: configuration)
        let count = WorkerThreadPool.io.threadCount
        let tasks = (0..<count).map {
            pipeline.imageTask(for: ImageRequest(url: URL(string: "https://slow-\($0).test/a.jpg")!))
        }
        defer { for task in tasks { task.cancel() } }
        try #require(await eventually { resolver.waiting == count })
        // When a file is read on the I/O pool while they hang
        let temporary = try TemporaryDirectory(prefix: "pinhole-dns")
        defer { temporary.remove() }
        let file = temporary.fileURL("file")
        try Data("file bytes".utf8).write(to: file)
        let readBytes = Locked<Data?>(nil)
        let read = Task {
            let data = try await FileDataLoader().loadData(for: DataRequest(url: file)).data
            readBytes.withLock { $0 = data }
        }
        defer { read.cancel() }
        // Then the read ends while every lookup still hangs
        #expect(await eventually { readBytes.withLock { $0 } == Data("file bytes".utf8) })
        #expect(resolver.waiting == count)
        // And a caller cancelled during its lookup leaves at once with CancellationError, the lookup still hanging
        let outcome = Locked<Result<ImageResponse, any Error>?>(nil)
        let watcher = Task {
            let result = await Result { try await tasks[0].response }
            outcome.withLock { $0 = result }
        }
        defer { watcher.cancel() }
        tasks[0].cancel()
        try #require(await eventually { outcome.withLock { $0 } != nil })
        #expect(resolver.waiting == count)
        guard case .failure(let error) = outcome.withLock({ $0 }) else {
            Issue.record("answered")
            return
        }
        #expect(error is CancellationError, "\(error)")
    }
}
