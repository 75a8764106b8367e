import Foundation
import PinholeTestServer
import PinholeTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite(.timeLimit(scaledMinutes: 1))
struct ConditionalRequestTests {
    let session = TestSupport.makeSession()

    @Test(arguments: ["\"v1\"", "W/\"v1\"", "\"x\", \"v1\"", "*"])
    func answers304WhenIfNoneMatchMatches(ifNoneMatch: String) async throws {
        // Given a route with an entity tag
        let server = try PinholeTestServer()
        server.route("/e", Route(headers: ["content-type": "image/jpeg"], body: Data(count: 500), etag: "v1"))

        // When the client revalidates with a matching If-None-Match
        var request = URLRequest(url: server.url("/e"))
        request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match")
        let (data, response) = try await session.data(for: request)

        // Then it gets 304 with no body, counted as not modified
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 304)
        #expect(http.value(forHTTPHeaderField: "ETag") == "\"v1\"")
        #expect(data.isEmpty)
        #expect(server.stats.notModified == 1)
        #expect(try await TestSupport.eventually { server.stats.requestsCompleted == 1 })  // counted once written
        #expect(server.lastRequest(for: "/e")?.headers["if-none-match"] == ifNoneMatch)
        await server.shutDown()
    }

    @Test func sendsFullBodyWithETagWhenTagDiffers() async throws {
        // Given a route with an entity tag
        let server = try PinholeTestServer()
        server.route("/e", Route(body: Data(count: 500), etag: "v2"))

        // When the client holds an older tag
        var request = URLRequest(url: server.url("/e"))
        request.setValue("\"v1\"", forHTTPHeaderField: "If-None-Match")
        let (data, response) = try await session.data(for: request)

        // Then it gets the full body and the current tag
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "ETag") == "\"v2\"")
        #expect(data.count == 500)
        #expect(server.stats.notModified == 0)
        await server.shutDown()
    }
}
