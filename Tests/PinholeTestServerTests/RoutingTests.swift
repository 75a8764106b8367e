import Foundation
import PinholeTestServer
import PinholeTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite(.timeLimit(scaledMinutes: 1))
struct RoutingTests {
    let session = TestSupport.makeSession()

    @Test func servesRouteWithItsStatusHeadersAndBody() async throws {
        // Given a route with a custom status, headers and body
        let server = try PinholeTestServer()
        let body = Data((0..<5000).map { UInt8($0 % 251) })
        server.route(
            "/a.jpg",
            Route(
                status: 203, headers: ["content-type": "image/jpeg", "cache-control": "max-age=60"],
                body: body))

        // When it is requested
        let (data, response) = try await session.data(from: server.url("/a.jpg"))

        // Then the client sees exactly that response, and the server counted it
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 203)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
        #expect(http.value(forHTTPHeaderField: "Cache-Control") == "max-age=60")
        #expect(http.value(forHTTPHeaderField: "Content-Length") == "5000")
        #expect(data == body)
        #expect(server.requestCount(for: "/a.jpg") == 1)
        #expect(try await TestSupport.eventually { server.stats.requestsCompleted == 1 })
        #expect(server.stats.bytesSent > 5000)
        await server.shutDown()
    }

    @Test func servesLargeBodyIntactAndCountsItsBytes() async throws {
        // Given a 3 MB image route
        let server = try PinholeTestServer()
        let body = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
        server.route("/big.jpg", .image(body))

        // When it is requested
        let (data, _) = try await session.data(from: server.url("/big.jpg"))

        // Then every byte arrives in order, and the byte counter covers head and body
        #expect(data == body)
        #expect(try await TestSupport.eventually { server.stats.requestsCompleted == 1 })
        #expect(server.stats.bytesSent > body.count && server.stats.bytesSent < body.count + 1000)
        await server.shutDown()
    }

    @Test func answersUnknownPathWith404() async throws {
        // Given a server without routes
        let server = try PinholeTestServer()

        // When an unknown path is requested
        let (_, response) = try await session.data(from: server.url("/missing"))

        // Then it is a 404 that still counts as a started and completed request
        #expect(TestSupport.status(response) == 404)
        #expect(server.requestCount(for: "/missing") == 1)
        #expect(try await TestSupport.eventually { server.stats.requestsCompleted == 1 })
        await server.shutDown()
    }

    @Test func fallsBackToHandlerWithPathAndQuery() async throws {
        // Given a handler that serves /img/N and sees the query
        let server = try PinholeTestServer()
        server.setHandler { request in
            guard request.path.hasPrefix("/img/") else { return nil }
            return .html("\(request.path.dropFirst(5))|\(request.query ?? "-")")
        }

        // When paths without an exact route are requested
        let (data, response) = try await session.data(from: server.url("/img/17?v=3"))
        let (_, missing) = try await session.data(from: server.url("/other"))

        // Then the handler answers the first, and its nil gives the second a 404
        #expect(TestSupport.status(response) == 200)
        #expect(String(decoding: data, as: UTF8.self) == "17|v=3")
        #expect(TestSupport.status(missing) == 404)
        let last = try #require(server.lastRequest(for: "/img/17?v=99"))
        #expect(last.path == "/img/17")
        #expect(last.query == "v=3")
        #expect(last.method == "GET")
        #expect(last.headers["host"] == "127.0.0.1:\(server.port)")
        await server.shutDown()
    }

    @Test func prefersRouteWithFullQueryOverPathRoute() async throws {
        // Given a route for a path and one for the path with a specific query
        let server = try PinholeTestServer()
        server.route("/p", .html("path"))
        server.route("/p?x=1", .html("query"))

        // When both variants and another query are requested
        let (exact, _) = try await session.data(from: server.url("/p?x=1"))
        let (other, _) = try await session.data(from: server.url("/p?x=2"))

        // Then the full-target route wins only for its own query, and counts ignore the query
        #expect(String(decoding: exact, as: UTF8.self) == "query")
        #expect(String(decoding: other, as: UTF8.self) == "path")
        #expect(server.requestCount(for: "/p") == 2)
        #expect(server.requestCount(for: "/p?x=1") == 2)
        await server.shutDown()
    }

    @Test func replacesAndRemovesRoutesWhileServing() async throws {
        // Given a route that is replaced, then removed
        let server = try PinholeTestServer()
        server.route("/r", .html("one"))
        let (first, _) = try await session.data(from: server.url("/r"))
        server.route("/r", .html("two"))
        let (second, _) = try await session.data(from: server.url("/r"))
        server.removeRoute("/r")

        // When requested again
        let (_, response) = try await session.data(from: server.url("/r"))

        // Then each request saw the route of its moment
        #expect(String(decoding: first, as: UTF8.self) == "one")
        #expect(String(decoding: second, as: UTF8.self) == "two")
        #expect(TestSupport.status(response) == 404)
        await server.shutDown()
    }

    @Test func answersHeadWithLengthButNoBody() async throws {
        // Given an image route
        let server = try PinholeTestServer()
        server.route("/h.png", .image(Data(count: 1234), contentType: "image/png"))

        // When it is requested with HEAD
        var request = URLRequest(url: server.url("/h.png"))
        request.httpMethod = "HEAD"
        let (data, response) = try await session.data(for: request)

        // Then headers describe the body but none is sent
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "image/png")
        #expect(http.value(forHTTPHeaderField: "Content-Length") == "1234")
        #expect(data.isEmpty)
        #expect(server.lastRequest(for: "/h.png")?.method == "HEAD")
        await server.shutDown()
    }

    @Test func followsRedirectRoute() async throws {
        // Given a redirect to another route
        let server = try PinholeTestServer()
        server.route("/old", .redirect(to: "/new"))
        server.route("/new", .html("moved here"))

        // When the old URL is requested
        let (data, response) = try await session.data(from: server.url("/old"))

        // Then URLSession followed it to the new one
        #expect(TestSupport.status(response) == 200)
        #expect(response.url?.path == "/new")
        #expect(String(decoding: data, as: UTF8.self) == "moved here")
        #expect(server.requestCount(for: "/old") == 1)
        #expect(server.requestCount(for: "/new") == 1)
        await server.shutDown()
    }

    @Test func resetStatsZeroesCountersAndForgetsRequests() async throws {
        // Given a server that served a request
        let server = try PinholeTestServer()
        server.route("/s", .html("s"))
        _ = try await session.data(from: server.url("/s"))
        #expect(try await TestSupport.eventually { server.stats.requestsCompleted == 1 })

        // When the stats are reset
        server.resetStats()

        // Then counters are zero and the request is forgotten
        let stats = server.stats
        #expect(stats == Stats(openConnections: stats.openConnections))
        #expect(server.requestCount(for: "/s") == 0)
        #expect(server.lastRequest(for: "/s") == nil)
        await server.shutDown()
    }
}
