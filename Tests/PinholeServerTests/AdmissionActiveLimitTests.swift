import Foundation
import Pinhole
import PinholeServer
import PinholeTestServer
import PinholeTestSupport
import Testing

/// `--active-limit`: the places where answers are made, apart from `--concurrency` (twice it by default).
@Suite(.timeLimit(scaledMinutes: 2))
struct AdmissionActiveLimitTests {
    @Test func thePlacesAreTwiceTheConcurrencyUnlessAnActiveLimitIsGiven() {
        // Given a configuration with concurrency 3
        var configuration = ServerConfiguration()
        configuration.concurrency = 3

        // When its admission limits are read without and with an active limit of 5
        let byDefault = configuration.admissionLimits.activeLimit
        configuration.activeLimit = 5
        let given = configuration.admissionLimits.activeLimit

        // Then the default is 6 places and the given limit is used as it is
        #expect(byDefault == 6)
        #expect(given == 5)
    }

    @Test func withOneActivePlaceAndNoQueueTheSecondColdRequestIs503() async throws {
        // Given concurrency 2 (4 places by default) but an active limit of 1, no queue, and a stuck origin
        let harness = try ServerHarness { configuration, _ in
            configuration.concurrency = 2
            configuration.activeLimit = 1
            configuration.queueLimit = 0
            configuration.timeout = .seconds(600)
        }
        defer { Task { await harness.stop() } }
        for name in ["a", "b"] { harness.origin.route("/\(name).jpg", Route(behavior: .neverRespond)) }
        let admission = try #require(harness.server.service.configuration.admission)
        // (never cancelled: stopping the origin ends it)
        let stuck = Task { try? await harness.get(harness.signedPath("w:10", plain: "/a.jpg")) }
        try #require(await eventually { admission.snapshot.active == 1 })

        // When a second cold request arrives
        let refused = try await harness.get(harness.signedPath("w:10", plain: "/b.jpg"))

        // Then it is refused at once, its source never asked, and the metrics show one place
        #expect(refused.status == 503)
        #expect(refused.errorCode == "overloaded")
        #expect(harness.origin.requestCount(for: "/b.jpg") == 0)
        let metrics = String(decoding: try await harness.get("/metrics").body, as: UTF8.self)
        #expect(metrics.contains("pinhole_admission_active_limit 1\n"), "\(metrics)")
        await harness.origin.shutDown()
        _ = await stuck.value
    }
}
