import Foundation
import PinholeShared
import PinholeVips

/// The server's own counters and latency histogram, rendered with the pipeline's in Prometheus' text format
/// (<https://prometheus.io/docs/instrumenting/exposition_formats/>), every name prefixed `pinhole_`.
final class ServerMetrics: Sendable {
    /// Upper bounds of the latency histogram's buckets, in seconds.
    static let latencyBuckets: [Double] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    struct State {
        var requestsByStatus: [Int: Int] = [:]
        var bucketCounts = [Int](repeating: 0, count: ServerMetrics.latencyBuckets.count)
        var latencyCount = 0
        var latencySum = 0.0
        var bytesSent = 0
        var aborted = 0
    }

    let state = Locked(State())

    /// Records one finished request.
    func record(status: Int?, seconds: Double, bytesSent: Int) {
        state.withLock { state in
            guard let status else {
                state.aborted += 1
                return
            }
            state.requestsByStatus[status, default: 0] += 1
            state.latencyCount += 1
            state.latencySum += seconds
            for (index, bound) in Self.latencyBuckets.enumerated() where seconds <= bound {
                state.bucketCounts[index] += 1
            }
            state.bytesSent += bytesSent
        }
    }

    /// One sample of the gauges and counters that live elsewhere (the pipeline, the service, the daemon).
    struct Snapshot {
        var inFlight: Int
        var coalescedJoins: Int
        var cacheHits: [(tier: String, count: Int)]
        var decodes: Int
        var encodes: Int
        var bytesReceived: Int
        var memoryBudgetBytes: Int
        var memoryInUseBytes: Int
        var draining: Bool
        /// Times freed memory was given back to the system after a burst.
        var memoryTrims = 0
        /// The process's resident size (`VmRSS`), in bytes.
        var residentBytes = 0
        /// glibc's allocator figures (all 0 without glibc); `nil` leaves them out.
        var allocator: MallocTuning.Figures? = nil
        /// The admission controller's state and its limits, when there is one.
        var admission: (state: AdmissionController.Snapshot, limits: AdmissionController.Limits)?
        /// The pipeline's stage times over the answers, when they are collected.
        var stages: StageHistograms?
    }

    /// The exposition text.
    func render(_ snapshot: Snapshot) -> String {
        let state = self.state.withLock { $0 }
        var lines: [String] = []
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            lines.append("# HELP pinhole_\(name) \(help)")
            lines.append("# TYPE pinhole_\(name) \(type)")
            for sample in samples { lines.append("pinhole_\(name)\(sample.labels) \(sample.value)") }
        }
        metric(
            "http_requests_total", "counter", "Requests answered, by status.",
            state.requestsByStatus.sorted { $0.key < $1.key }.map { ("{status=\"\($0.key)\"}", "\($0.value)") })
        metric(
            "http_requests_aborted_total", "counter", "Requests the client left before an answer.",
            [("", "\(state.aborted)")])
        var buckets: [(String, String)] = []
        for (index, bound) in Self.latencyBuckets.enumerated() {
            buckets.append(("_bucket{le=\"\(bound)\"}", "\(state.bucketCounts[index])"))
        }
        buckets.append(("_bucket{le=\"+Inf\"}", "\(state.latencyCount)"))
        buckets.append(("_sum", "\(state.latencySum)"))
        buckets.append(("_count", "\(state.latencyCount)"))
        metric("http_request_duration_seconds", "histogram", "Time from the request's head to its answer.", buckets)
        metric("http_requests_in_flight", "gauge", "Requests being answered.", [("", "\(snapshot.inFlight)")])
        metric(
            "coalesced_joins_total", "counter", "Requests that joined identical work already running.",
            [("", "\(snapshot.coalescedJoins)")])
        metric(
            "cache_hits_total", "counter", "Answers found in a cache, by tier.",
            snapshot.cacheHits.map { ("{tier=\"\($0.tier)\"}", "\($0.count)") })
        metric("decodes_total", "counter", "Source images decoded.", [("", "\(snapshot.decodes)")])
        metric("encodes_total", "counter", "Answers encoded.", [("", "\(snapshot.encodes)")])
        metric("bytes_received_total", "counter", "Bytes downloaded from origins.", [("", "\(snapshot.bytesReceived)")])
        metric("bytes_sent_total", "counter", "Body bytes sent to clients.", [("", "\(state.bytesSent)")])
        metric("memory_budget_bytes", "gauge", "The memory budget.", [("", "\(snapshot.memoryBudgetBytes)")])
        metric(
            "memory_budget_in_use_bytes", "gauge", "Bytes held by the memory caches.",
            [("", "\(snapshot.memoryInUseBytes)")])
        metric("draining", "gauge", "1 while the server drains before it stops.", [("", snapshot.draining ? "1" : "0")])
        metric(
            "memory_trims_total", "counter", "Times freed memory was given back to the system after a burst.",
            [("", "\(snapshot.memoryTrims)")])
        Self.render(process: snapshot, into: metric)
        if let (admission, limits) = snapshot.admission { Self.render(admission, limits: limits, into: metric) }
        snapshot.stages?.render(into: metric)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The process's resident size and where its heap is: what `--memory-budget` does not count (the idle
    /// process, freed memory the allocator keeps) is read here against `pinhole_memory_budget_bytes`.
    static func render(
        process snapshot: Snapshot, into metric: (String, String, String, [(labels: String, value: String)]) -> Void
    ) {
        metric(
            "process_resident_bytes", "gauge", "Resident size of the process (VmRSS).",
            [("", "\(snapshot.residentBytes)")])
        guard let allocator = snapshot.allocator else { return }
        metric(
            "malloc_arena_bytes", "gauge", "Bytes glibc's arenas took from the system (mallinfo2 arena).",
            [("", "\(allocator.arenaBytes)")])
        metric(
            "malloc_arena_free_bytes", "gauge", "Free bytes in the arenas, resident until a trim (mallinfo2 fordblks).",
            [("", "\(allocator.freeBytes)")])
        metric(
            "malloc_mapped_bytes", "gauge", "Bytes in blocks mapped on their own (mallinfo2 hblkhd).",
            [("", "\(allocator.mappedBytes)")])
        metric("malloc_arenas", "gauge", "glibc arenas, the main one included.", [("", "\(allocator.arenaCount)")])
    }

    /// The admission controller's gauges and refusals.
    static func render(
        _ admission: AdmissionController.Snapshot, limits: AdmissionController.Limits,
        into metric: (String, String, String, [(labels: String, value: String)]) -> Void
    ) {
        metric("admission_active", "gauge", "Answers being made.", [("", "\(admission.active)")])
        metric("admission_active_limit", "gauge", "Answers made at once, at most.", [("", "\(limits.activeLimit)")])
        metric("admission_queued", "gauge", "Requests waiting for a place.", [("", "\(admission.queued)")])
        metric("admission_queue_limit", "gauge", "Requests that may wait, at most.", [("", "\(limits.queueLimit)")])
        metric(
            "admission_memory_reserved_bytes", "gauge", "Bytes reserved by decodes and encodes in progress.",
            [("", "\(admission.memoryReserved)")])
        metric(
            "admission_memory_budget_bytes", "gauge", "Bytes decodes and encodes may reserve at once.",
            [("", "\(limits.memoryBudget)")])
        metric(
            "admission_memory_waiting", "gauge", "Decodes and encodes waiting for memory.",
            [("", "\(admission.memoryWaiting)")])
        metric(
            "admission_rejections_total", "counter", "Requests refused by admission control, by reason.",
            AdmissionError.Reason.allCases.map { ("{reason=\"\($0.rawValue)\"}", "\(admission.rejections[$0] ?? 0)") })
    }
}
