import Foundation

extension ServeOverloadResult {
    /// A readable report: the setup and server flags, one line per phase, the goals with PASS/MISS, and the
    /// server's admission counters.
    public var text: String {
        let mb = { (bytes: Int) in Self.format(Double(bytes) / 1_000_000) + " MB" }
        let cached = cachedBytes.map { mb($0) + " (kept by design, within 3/8 of the budget)" } ?? "(not reported)"
        let environment = serverEnvironment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var lines = [
            "pinhole bench serve --overload: \(corpusFiles) photos at \(corpusLongestSide) px longest side "
                + "(\(corpusMeanBytes / 1000) kB mean) -> rs:fit:512:512 JPEG, every request a new source "
                + "(download, decode, resize, encode); \(cores) cores; " + (signed ? "signed URLs" : "unsigned URLs"),
            "server: pinhole serve --concurrency \(cores) --memory-budget \(memoryBudget) --queue-limit \(queueLimit) "
                + "--queue-timeout \(Self.format(queueTimeoutSeconds, 3))"
                + (activeLimit.map { " --active-limit \($0)" } ?? "")
                + (environment.isEmpty ? "" : "; environment " + environment.joined(separator: " ")),
            "load average (1 min): \(Self.format(loadAverageBefore, 2)) before, \(Self.format(loadAverageAfter, 2)) "
                + "after",
            "",
            "1 idle:     RSS \(mb(idleResidentBytes))",
            "2 capacity: wrk, \(capacityConnections) connections, \(Self.format(capacitySeconds)) s: "
                + "C = \(Self.format(capacityPerSecond)) answers/s (\(capacityErrors) errors)",
            "3 unloaded: " + Self.line(unloaded),
            "4 overload: " + Self.line(overload),
            "            in the server (access log, head to answer): " + Self.classes(serverOverload),
            "            peak RSS \(mb(peakResidentBytes)) (VmHWM), \(mb(sampledPeakResidentBytes)) (VmRSS sampled)",
            "5 recovery: RSS each second after the load (MB): "
                + recoveryResidentBytes.map { Self.format(Double($0) / 1_000_000, 0) }.joined(separator: " "),
            "            at the end \(mb(recoveredResidentBytes)), of which the memory caches hold \(cached)",
            "",
            "goals (issue 27):",
        ]
        for goal in goals {
            lines.append(
                "  \(goal.met ? "PASS" : "MISS") \(goal.name): \(Self.format(goal.measured, 2)) "
                    + "(\(goal.comparison.rawValue) \(Self.format(goal.bound, 2)))")
        }
        lines.append("")
        lines.append("server admission counters at the end (/metrics):")
        for (name, value) in metrics.sorted(by: { $0.key < $1.key }) {
            lines.append("  pinhole_\(name) \(Self.format(value, 0))")
        }
        return lines.joined(separator: "\n")
    }

    /// `200 n (p50 …, p99 …, max … ms), 503 …, other …`.
    static func classes(_ byClass: [String: OpenLoopRun.Latencies]) -> String {
        ["200", "503", "other"].map { name -> String in
            guard let latencies = byClass[name], latencies.count > 0 else { return "\(name) 0" }
            return "\(name) \(latencies.count) (p50 \(format(latencies.p50Milliseconds)), p99 "
                + "\(format(latencies.p99Milliseconds)), max \(format(latencies.maxMilliseconds)) ms)"
        }.joined(separator: ", ")
    }

    /// `open loop R/s for S s: 200 n (p50/p99/max ms), 503 …, other …; client lag`.
    static func line(_ run: OpenLoopRun.Summary) -> String {
        let others = run.statuses.filter { !["200", "503"].contains($0.key) }.sorted { $0.key < $1.key }
        return "open loop \(format(run.rate)) req/s for \(format(run.seconds, 0)) s: " + classes(run.byClass)
            + (others.isEmpty ? "" : " [other: " + others.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "]")
            + "; client send lag max \(format(run.maxSendLagMilliseconds)) ms"
            + (run.wrapped > 0 ? "; URL list WRAPPED \(run.wrapped)x" : "")
    }

    static func format(_ value: Double, _ places: Int = 1) -> String {
        ServeBenchmarkResult.format(value, places)
    }
}
