import Foundation
import PinholeTestServer
import PinholeTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite(.timeLimit(scaledMinutes: 1))
struct FaultInjectionTests {
    let session = TestSupport.makeSession()
    let body = Data((0..<100_000).map { UInt8($0 % 253) })

    /// Runs `session.data(for:)` in a task, waits until the server has started the request plus `delay`,
    /// then cancels the task; returns how the call ended.
    private func cancelAfterStart(
        _ server: PinholeTestServer, path: String, delay: Duration
    ) async throws -> Result<Data, any Error> {
        let session = session
        let url = server.url(path)
        let task = Task { try await session.data(for: URLRequest(url: url)).0 }
        defer { task.cancel() }
        try #require(try await TestSupport.eventually { server.requestCount(for: path) == 1 })
        try await Task.sleep(for: delay)
        task.cancel()
        return await Result { try await task.cancellableValue }
    }

    @Test func truncatedBodyFailsOrArrivesShort() async throws {
        // Given a route whose body is cut after 1000 bytes
        let server = try PinholeTestServer()
        server.route("/t", Route(body: body, behavior: .truncate(afterBytes: 1000)))

        // When it is requested
        let result = await Result(catching: { try await session.data(from: server.url("/t")).0 })

        // Then the client never sees the full body, and the server counts neither completion nor abort
        switch result {
        case .success(let data): #expect(data.count < body.count)
        case .failure: break
        }
        #expect(try await TestSupport.eventually { server.stats.openConnections == 0 })
        #expect(server.stats.requestsCompleted == 0)
        #expect(server.stats.requestsAborted == 0)
        #expect(server.stats.requestsStarted == 1)
        await server.shutDown()
    }

    @Test func resetConnectionFailsTheRequest() async throws {
        // Given a route that resets after 1000 body bytes
        let server = try PinholeTestServer()
        server.route("/r", Route(body: body, behavior: .reset(afterBytes: 1000)))

        // When it is requested
        let result = await Result(catching: { try await session.data(from: server.url("/r")).0 })

        // Then the client gets an error
        #expect(throws: (any Error).self) { try result.get() }
        #expect(server.stats.requestsCompleted == 0)
        await server.shutDown()
    }

    @Test func stalledResponseIsAbortedWhenClientCancels() async throws {
        // Given a route that stalls after 1000 body bytes
        let server = try PinholeTestServer()
        server.route("/s", Route(body: body, behavior: .stall(afterBytes: 1000)))

        // When the client gives up after 300 ms
        let result = try await cancelAfterStart(server, path: "/s", delay: .milliseconds(300))

        // Then the call failed and the server counted the request aborted, not completed
        #expect(throws: (any Error).self) { try result.get() }
        #expect(try await TestSupport.eventually { server.stats.requestsAborted == 1 })
        #expect(server.stats.requestsCompleted == 0)
        await server.shutDown()
    }

    @Test func clientCancelDuringLatencyAbortsAndSendsNothing() async throws {
        // Given a route that answers after 60 s (long enough that a cancel on a loaded machine still comes first)
        let server = try PinholeTestServer()
        server.route("/slow", .image(body, latency: .seconds(60)))

        // When the client cancels 50 ms into the wait
        let result = try await cancelAfterStart(server, path: "/slow", delay: .milliseconds(50))

        // Then the request is counted aborted (long before the 60 s) and no response byte was sent
        #expect(throws: (any Error).self) { try result.get() }
        #expect(try await TestSupport.eventually { server.stats.requestsAborted == 1 })
        #expect(server.stats.requestsCompleted == 0)
        #expect(server.stats.bytesSent == 0)
        await server.shutDown()
    }

    @Test func neverRespondingRouteIsAbortedWhenClientCancels() async throws {
        // Given a route that never answers
        let server = try PinholeTestServer()
        server.route("/n", Route(behavior: .neverRespond))

        // When the client gives up
        let result = try await cancelAfterStart(server, path: "/n", delay: .milliseconds(100))

        // Then the server counted it aborted and sent nothing
        #expect(throws: (any Error).self) { try result.get() }
        #expect(try await TestSupport.eventually { server.stats.requestsAborted == 1 })
        #expect(server.stats.bytesSent == 0)
        await server.shutDown()
    }

    @Test func trickleDeliversTheFullBody() async throws {
        // Given a 10,000-byte body sent 1000 bytes every 10 ms
        let server = try PinholeTestServer()
        let small = body.prefix(10_000)
        server.route("/tr", Route(body: small, behavior: .trickle(bytes: 1000, every: .milliseconds(10))))

        // When it is requested
        let (data, response) = try await session.data(from: server.url("/tr"))

        // Then every byte arrives and the request completes
        #expect(TestSupport.status(response) == 200)
        #expect(data == small)
        #expect(try await TestSupport.eventually { server.stats.requestsCompleted == 1 })
        await server.shutDown()
    }

    @Test func trickleIsAbortedWhenClientLeaves() async throws {
        // Given a body trickled 10 bytes every 50 ms (minutes in total)
        let server = try PinholeTestServer()
        server.route("/tl", Route(body: body, behavior: .trickle(bytes: 10, every: .milliseconds(50))))

        // When the client gives up after 200 ms
        let result = try await cancelAfterStart(server, path: "/tl", delay: .milliseconds(200))

        // Then the server stops trickling and counts the request aborted
        #expect(throws: (any Error).self) { try result.get() }
        #expect(try await TestSupport.eventually { server.stats.requestsAborted == 1 })
        #expect(server.stats.requestsCompleted == 0)
        await server.shutDown()
    }
}

extension Result where Failure == any Error {
    /// Captures the outcome of an async throwing call.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
