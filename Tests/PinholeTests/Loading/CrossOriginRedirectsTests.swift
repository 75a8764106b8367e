import Foundation
import PinholeTestSupport
import Testing

@testable import Pinhole
@testable import PinholeCurl

/// What makes a redirect cross-origin, and which request headers it still carries.
@Suite(.timeLimit(scaledMinutes: 1))
struct CrossOriginRedirectsTests {
    static let start = URL(string: "https://Images.Example/a.jpg")!

    @Test(arguments: ["https://images.example/b.jpg", "HTTPS://IMAGES.EXAMPLE:443/b.jpg", "https://images.example/?q"])
    func theSameSchemeHostAndPortAreTheSameOriginWhateverTheCaseOrTheDefaultPort(_ target: String) throws {
        #expect(CrossOriginRedirects.sameOrigin(Self.start, try #require(URL(string: target))))
    }

    @Test(arguments: [
        "http://images.example/b.jpg", "https://images.example:8443/b.jpg",
        "https://cdn.images.example/b.jpg", "https://example/b.jpg", "ftp://images.example/b.jpg",
    ])
    func anotherSchemeHostOrPortIsAnotherOrigin(_ target: String) throws {
        #expect(!CrossOriginRedirects.sameOrigin(Self.start, try #require(URL(string: target))))
    }

    @Test func aCrossOriginHopKeepsOnlyTheAllowListedHeadersInTheirOrder() throws {
        // Given configured and per-request headers, secrets among them, and validators
        var configuration = HTTPDataLoader.Configuration()
        configuration.additionalHeaders = ["User-Agent": "Pinhole", "X-Team": "t"]
        var request = DataRequest(url: Self.start, ifNoneMatch: "\"v1\"")
        request.headers = [
            "Accept": "image/*", "authorization": "Bearer s", "Cookie": "c=1", "X-Api-Key": "k",
            "Proxy-Authorization": "Basic s",
        ]
        // When the transfer options are made
        let options = try HTTPTransferOptions(request: request, configuration: configuration)
        // Then every header goes to the request's origin, and only the harmless ones elsewhere
        #expect(options.headerLines.count == 8)
        #expect(options.crossOriginHeaderLines == ["User-Agent: Pinhole", "Accept: image/*", "If-None-Match: \"v1\""])
    }
}
