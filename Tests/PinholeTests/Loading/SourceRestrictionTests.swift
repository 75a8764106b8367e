import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// Loaders take an untrusted policy's restriction through ``DataLoading/restricted(by:)``, and the core without an
/// HTTP loader refuses HTTP with a typed error instead of reaching for a transport it does not have.
@Suite(.timeLimit(scaledMinutes: 1))
struct SourceRestrictionTests {
    static let restriction = SourceRestriction(maxBytes: 4, allowedFileRoot: nil) { _, _ in }

    @Test func aRouterWithoutAnHTTPLoaderRefusesHTTPAsAnInvalidRequestThatNamesTheMissingLoader() async throws {
        // Given the core's default router (no HTTP client of its own)
        let router = SchemeRoutingDataLoader()

        // When an https URL is loaded through it
        let error = await #expect(throws: PinholeError.self) {
            _ = try await router.loadData(for: DataRequest(url: URL(string: "https://example.com/a.jpg")!))
        }

        // Then it is refused before any connection, saying which loader to give
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains("HTTPDataLoader") == true, "\(String(describing: error))")
    }

    @Test func aRestrictedRouterClampsItsFileLoadersByteLimitAndKeepsACustomHTTPLoaderAsGiven() async throws {
        // Given a 5-byte file and a router over a custom HTTP loader and the default file loader
        let directory = try TemporaryDirectory(prefix: "pinhole-restrict")
        let file = directory.fileURL("five.bin")
        try Data([1, 2, 3, 4, 5]).write(to: file)
        let marker = GatedDataLoader(answering: { .success(DataResponse(data: Data([7]), url: $0)) })
        let router = SchemeRoutingDataLoader(http: marker)

        // When it is restricted to 4 bytes
        let restricted = router.restricted(by: Self.restriction)

        // Then the file is refused as too large, and the custom loader still answers with its own bytes
        let error = await #expect(throws: PinholeError.self) {
            _ = try await restricted.loadData(for: DataRequest(url: file))
        }
        #expect(error?.code == .dataTooLarge)
        let http = try await restricted.loadData(for: DataRequest(url: URL(string: "http://example.com/x")!))
        #expect(http.data == Data([7]))
        #expect(try await router.loadData(for: DataRequest(url: file)).data.count == 5)
    }
}
