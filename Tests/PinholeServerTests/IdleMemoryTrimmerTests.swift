import Foundation
import PinholeShared
import PinholeTestServer
import PinholeTestSupport
import Testing

@testable import PinholeServer

/// Memory freed by a burst is given back once the server is idle: one trim per idle spell, none while busy.
@Suite(.timeLimit(scaledMinutes: 1))
struct IdleMemoryTrimmerTests {
    @Test func aBurstThatEndsIsTrimmedOnceAfterTheDelay() async throws {
        // Given a trimmer with a 200 ms delay (longer than a loaded machine pauses the loop below)
        let trims = Locked(0)
        let trimmer = IdleMemoryTrimmer(delay: .milliseconds(200)) { trims.withLock { $0 += 1 } }
        // When 50 answers end in a row, the server idle after each
        for _ in 0..<50 { trimmer.workEnded { true } }
        // Then one trim runs, and no more
        #expect(await eventually { trimmer.trimCount == 1 })
        try await Task.sleep(for: .milliseconds(500))
        #expect(trims.withLock { $0 } == 1)
    }

    @Test func aServerBusyWhenTheTrimIsDueIsNotTrimmed() async throws {
        // Given an answer that ended while others were still being made
        let busy = Locked(false)
        let trimmer = IdleMemoryTrimmer(delay: .milliseconds(20)) {}
        busy.withLock { $0 = true }
        trimmer.workEnded { !busy.withLock { $0 } }
        try await Task.sleep(for: .milliseconds(100))
        // Then no trim ran while busy, and the next idle end of work trims
        #expect(trimmer.trimCount == 0)
        busy.withLock { $0 = false }
        trimmer.workEnded { !busy.withLock { $0 } }
        #expect(await eventually { trimmer.trimCount == 1 })
    }

    @Test func theServerTrimsAfterItsLastAnswerAndReportsItsMemoryInMetrics() async throws {
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        #expect(try await harness.get(harness.signedPath("w:50", plain: "/p.jpg")).status == 200)
        #expect(await eventually { harness.server.memoryTrimmer.trimCount == 1 })
        let metrics = String(decoding: try await harness.get("/metrics").body, as: UTF8.self)
        #expect(metrics.contains("pinhole_memory_trims_total 1\n"))
        // And the process's resident size and, outside a sanitizer (whose allocator has no arenas), glibc's
        // figures: what the budget does not count
        let resident = PrometheusSample.value("pinhole_process_resident_bytes", in: metrics)
        #expect((resident ?? 0) > 1_000_000, "\(String(describing: resident))")
        if !LoadFactor.isSanitizedRun {
            #expect((PrometheusSample.value("pinhole_malloc_arenas", in: metrics) ?? 0) >= 1)
            #expect((PrometheusSample.value("pinhole_malloc_arena_bytes", in: metrics) ?? 0) > 0)
            #expect(PrometheusSample.value("pinhole_malloc_arena_free_bytes", in: metrics) != nil)
            #expect(PrometheusSample.value("pinhole_malloc_mapped_bytes", in: metrics) != nil)
        }
    }
}

/// One sample's value from Prometheus' text format.
enum PrometheusSample {
    static func value(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").lazy.compactMap { line -> Double? in
            let parts = line.split(separator: " ")
            return parts.count == 2 && parts[0] == name ? Double(parts[1]) : nil
        }.first
    }
}
