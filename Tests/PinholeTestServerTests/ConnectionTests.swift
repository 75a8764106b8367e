import Foundation
import Glibc
import PinholeTestServer
import PinholeTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite(.timeLimit(scaledMinutes: 1))
struct ConnectionTests {
    @Test func reusesOneConnectionForSequentialRequests() async throws {
        // Given a fresh session and a route
        let session = TestSupport.makeSession()
        let server = try PinholeTestServer()
        server.route("/k", .html("keep"))

        // When three requests run one after another
        for _ in 0..<3 {
            let (data, _) = try await session.data(from: server.url("/k"))
            #expect(String(decoding: data, as: UTF8.self) == "keep")
        }

        // Then they shared one connection
        #expect(server.stats.connectionsAccepted == 1)
        #expect(server.stats.requestsStarted == 3)
        await server.shutDown()
    }

    @Test func honoursConnectionCloseAndServesPipelinedRequests() async throws {
        // Given a route
        let server = try PinholeTestServer()
        server.route("/p", .html("pp"))

        // When two requests are pipelined on one connection, the second asking to close
        let reply = await RawClient.exchange(
            port: server.port,
            "GET /p HTTP/1.1\r\nHost: x\r\n\r\nGET /p?second HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")

        // Then both are answered in order and the server closed after the second
        let responses = reply.components(separatedBy: "HTTP/1.1 200 OK")
        #expect(responses.count == 3)
        #expect(responses[1].contains("Connection: keep-alive"))
        #expect(responses[2].contains("Connection: close"))
        #expect(reply.hasSuffix("pp"))
        #expect(server.stats.connectionsAccepted == 1)
        #expect(try await TestSupport.eventually { server.stats.openConnections == 0 })
        await server.shutDown()
    }

    @Test func closesHTTP10ConnectionsUnlessKeepAliveIsAsked() async throws {
        // Given a route
        let server = try PinholeTestServer()
        server.route("/old", .html("ten"))

        // When an HTTP/1.0 client sends a request without keep-alive
        let reply = await RawClient.exchange(port: server.port, "GET /old HTTP/1.0\r\n\r\n")

        // Then the response says close and the server closed (the exchange returned at EOF)
        #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(reply.contains("Connection: close"))
        #expect(reply.hasSuffix("ten"))
        await server.shutDown()
    }

    @Test(arguments: [
        ("garbage\r\n\r\n", 400),
        ("GET /x HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", 400),
        ("GET /x HTTP/1.1\r\nHost: x\r\n: empty-name\r\n\r\n", 400),
        ("GET /x HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 400),
        ("GET  /x HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET /x HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        ("GET /x HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400),
        ("GET /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
        ("\u{01}\u{02}\u{03}\n\n", 400),
    ])
    func rejectsMalformedRequestAndCloses(request: String, status: Int) async throws {
        // Given a server
        let server = try PinholeTestServer()

        // When a malformed request head arrives
        let reply = await RawClient.exchange(port: server.port, request)

        // Then it gets the error status, the connection closes, and no request was started
        #expect(reply.hasPrefix("HTTP/1.1 \(status) "))
        #expect(reply.contains("Connection: close"))
        #expect(server.stats.requestsStarted == 0)
        await server.shutDown()
    }

    @Test func rejectsHeadsOver16KiBWith431() async throws {
        // Given a server
        let server = try PinholeTestServer()

        // When a request head of 20 KiB arrives
        let huge = String(repeating: "a", count: 20 * 1024)
        let reply = await RawClient.exchange(port: server.port, "GET /x HTTP/1.1\r\nHost: x\r\nX-Big: \(huge)\r\n\r\n")

        // Then it is refused with 431 and closed
        #expect(reply.hasPrefix("HTTP/1.1 431 "))
        #expect(server.stats.requestsStarted == 0)
        await server.shutDown()
    }

    @Test func answersOtherMethodsWith405() async throws {
        // Given a route
        let server = try PinholeTestServer()
        server.route("/m", .html("m"))

        // When it is requested with POST and a small body
        let reply = await RawClient.exchange(
            port: server.port, "POST /m HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")

        // Then the method is refused and the allowed ones listed
        #expect(reply.hasPrefix("HTTP/1.1 405 "))
        #expect(reply.contains("Allow: GET, HEAD"))
        await server.shutDown()
    }

    @Test func servesHundredConcurrentRequestsOf100Milliseconds() async throws {
        // Given a route that answers after 100 ms, and a session allowed 200 connections
        let session = TestSupport.makeSession(maxConnectionsPerHost: 200)
        let server = try PinholeTestServer()
        server.route("/slow", .image(Data(count: 2000), latency: .milliseconds(100)))

        // When 100 requests run at once
        let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<100 {
                group.addTask {
                    let (data, _) = try await session.data(from: server.url("/slow?i=\(index)"))
                    return data.count
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }

        // Then all complete with the full body
        #expect(sizes.count == 100)
        #expect(sizes.allSatisfy { $0 == 2000 })
        #expect(try await TestSupport.eventually { server.stats.requestsCompleted == 100 })
        #expect(server.requestCount(for: "/slow") == 100)
        await server.shutDown()
    }

    @Test func holdsThreeHundredConcurrentConnections() async throws {
        // Given a route that never answers
        let server = try PinholeTestServer()
        server.route("/hold", Route(behavior: .neverRespond))

        // When 300 clients each open a connection and send a request
        let clients = await TestSupport.onOwnThread { () -> [Int32] in
            (0..<300).compactMap { _ in
                guard let client = RawClient(port: server.port) else { return nil }
                client.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n")
                return dup(client.fd)  // keep the socket open after the RawClient goes away
            }
        }
        #expect(clients.count == 300)

        // Then the server holds all 300 at once, and counts them aborted when the clients leave
        #expect(try await TestSupport.eventually(timeout: .seconds(20)) { server.stats.requestsStarted == 300 })
        #expect(server.stats.openConnections == 300)
        for fd in clients { close(fd) }
        #expect(try await TestSupport.eventually(timeout: .seconds(20)) { server.stats.requestsAborted == 300 })
        #expect(try await TestSupport.eventually { server.stats.openConnections == 0 })
        #expect(server.stats.requestsCompleted == 0)
        await server.shutDown()
    }
}
