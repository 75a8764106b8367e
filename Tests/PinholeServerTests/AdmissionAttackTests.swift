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

    @Test func aBaselineJPEGOfSeveralScansIsRefusedForTheCoefficientsItWouldBuffer() async throws {
        // Given a 7.5 MB work share (12 MB budget) and a 1000 × 1000 CMYK JPEG of four baseline scans, one a
        // component: libjpeg buffers the whole image's coefficients to decode it (8 MB, measured 8.3 bytes a pixel
        // in all), where a baseline JPEG of one scan decodes at its 1/8 shrink in a few hundred kB
        let harness = try ServerHarness { configuration, _ in configuration.memoryBudget = 12_000_000 }
        defer { Task { await harness.stop() } }
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let scans = try await readData(
            atPath: directory.appendingPathComponent("Fixtures/vips/estimate-seqscans-cmyk.jpg").path)
        harness.origin.route("/scans.jpg", .image(scans))
        // When a thumbnail of it is asked for
        let answer = try await harness.get(harness.signedPath("w:100", plain: "/scans.jpg"))
        // Then it is refused for memory before any decode (its estimate counted the coefficients: a hostile origin
        // sent such files to decode at 400 MB each under a 64 MB budget)
        #expect(answer.status == 422)
        #expect(answer.errorCode == "over_memory_budget")
        #expect(harness.server.service.configuration.pipeline.metrics.decodes == 0)
    }
}
