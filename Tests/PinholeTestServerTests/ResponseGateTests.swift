import Foundation
import PinholeTestServer
import PinholeTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A gated route holds its answers until the test opens the gate, however long that takes.
@Suite(.timeLimit(scaledMinutes: 1))
struct ResponseGateTests {
    let session = TestSupport.makeSession()
    let body = Data((0..<5_000).map { UInt8($0 % 251) })

    @Test func aGatedRouteAnswersOnlyOnceItsGateIsOpened() async throws {
        // Given a route behind a closed gate, and a request that has reached it
        let server = try PinholeTestServer()
        let gate = ResponseGate()
        server.route("/held", .image(body, gate: gate))
        let session = session
        let url = server.url("/held")
        let answer = Task { try await session.data(from: url).0 }
        try #require(try await TestSupport.eventually { server.requestCount(for: "/held") == 1 })
        // When a while passes with the gate closed
        try await Task.sleep(for: .milliseconds(300))
        // Then nothing was sent
        #expect(server.stats.bytesSent == 0 && server.stats.requestsCompleted == 0)
        #expect(!gate.isOpen)
        // When the gate opens
        gate.open()
        // Then the answer arrives whole
        #expect(try await answer.value == body)
        #expect(try await TestSupport.eventually { server.stats.requestsCompleted == 1 })
        await server.shutDown()
    }

    @Test func aClientThatLeavesAtAClosedGateIsCountedAbortedAndGetsNothing() async throws {
        // Given a request waiting at a closed gate
        let server = try PinholeTestServer()
        server.route("/held", .image(body, gate: ResponseGate()))
        let session = session
        let url = server.url("/held")
        let answer = Task { try await session.data(for: URLRequest(url: url)).0 }
        try #require(try await TestSupport.eventually { server.requestCount(for: "/held") == 1 })
        // When the client gives up
        answer.cancel()
        // Then the server counts it aborted, sent no byte, and the call failed
        #expect(try await TestSupport.eventually { server.stats.requestsAborted == 1 })
        #expect(server.stats.bytesSent == 0 && server.stats.requestsCompleted == 0)
        await #expect(throws: (any Error).self) { try await answer.value }
        await server.shutDown()
    }
}

extension ResponseGateTests {
    @Test func stoppingTheServerEndsARequestWaitingAtAGateThatNeverOpens() async throws {
        // Given a request waiting at a gate nobody opens
        let server = try PinholeTestServer()
        server.route("/held", .image(body, gate: ResponseGate()))
        let port = server.port
        async let reply = RawClient.exchange(port: port, "GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
        try #require(try await TestSupport.eventually { server.requestCount(for: "/held") == 1 })
        // When the server stops
        await server.shutDown()
        // Then the client saw the connection close without an answer, and nothing counts as completed
        #expect(await reply == "")
        #expect(server.stats.openConnections == 0 && server.stats.requestsCompleted == 0)
    }
}
