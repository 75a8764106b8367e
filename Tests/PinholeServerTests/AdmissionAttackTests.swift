import Foundation
import Pinhole
import PinholeServer
import PinholeTestServer
import PinholeTestSupport
import PinholeVips
import Testing

/// Admission under hostile requests: a refusal for memory comes before the decode, not after it.
@Suite(.timeLimit(scaledMinutes: 2))
struct AdmissionAttackTests {
    @Test func anEnlargedAnswerWhoseEncodeNeedsMoreThanTheBudgetIsRefusedBeforeItsDecode() async throws {
        // Given a 16 MB work share (25.6 MB budget) and an 80 × 60 PNG, asked for enlarged to 2,048 × 1,536: the
        // decode's estimate (~12.6 MB: the output pixels) fits, the encode's reservation (twice the pixels) does not
        let harness = try ServerHarness { configuration, _ in configuration.memoryBudget = 25_600_000 }
        defer { Task { await harness.stop() } }
        harness.origin.route("/tiny.png", .image(try await OriginImages.halves(width: 80, height: 60, format: .png)))
        // When it is asked for
        let answer = try await harness.get(harness.signedPath("w:2048/el:1", plain: "/tiny.png"))
        // Then it is refused for memory, and no decode was made for it (the refusal is known from the header)
        #expect(answer.status == 422)
        #expect(answer.errorCode == "over_memory_budget")
        #expect(harness.server.service.configuration.pipeline.metrics.decodes == 0)
        let admission = try #require(harness.server.service.configuration.admission)
        #expect(admission.snapshot.memoryReserved == 0)
    }
}
