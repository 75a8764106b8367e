import Foundation

extension ServeBenchmarkResult {
    /// A readable report: the setup, the in-process reference, one table row per run, the hot keys, the targets.
    public var text: String {
        var lines: [String] = []
        lines.append(
            "pinhole bench serve: \(corpusFiles) photos at \(corpusLongestSide) px longest side (JPEG q85, "
                + "\(corpusMeanBytes / 1000) kB mean) -> rs:fit:512:512; \(cores) cores; \(secondsPerRun) s per run; "
                + (signed ? "signed URLs" : "unsigned URLs"))
        let (before, after) = (Self.format(loadAverageBefore, 2), Self.format(loadAverageAfter, 2))
        lines.append("load average (1 min): \(before) before, \(after) after")
        lines.append("cold = every request a source URL not asked before (download, decode, resize, encode);")
        lines.append("steady = one URL per photo, primed once, then asked again and again (answers from the cache).")
        lines.append("")
        for reference in inProcess {
            lines.append(
                "in-process pinhole thumbnail --jobs \(reference.jobs) --untrusted, \(reference.format.rawValue): "
                    + "\(Self.format(reference.imagesPerSecond.median)) images/s "
                    + "(\(Self.format(reference.imagesPerSecond.minimum))-"
                    + "\(Self.format(reference.imagesPerSecond.maximum))), "
                    + "\(Self.format(reference.secondsPerImage * 1000)) ms per image on its worker, "
                    + "CPU \(Self.format(reference.cpuSecondsPerImage * 1000)) ms/image")
        }
        lines.append("")
        let header = [
            "server", "format", "pass", "conn", "req/s", "p50 ms", "p95 ms", "p99 ms", "errors", "RSS MB", "CPU ms/req",
            "origin",
        ]
        var rows = [header]
        for run in runs {
            rows.append([
                run.server.rawValue, run.format.rawValue, run.pass.rawValue + (run.ranOutOfURLs ? "*" : ""),
                String(run.connections), Self.format(run.requestsPerSecond), Self.format(run.p50Milliseconds),
                Self.format(run.p95Milliseconds), Self.format(run.p99Milliseconds), String(run.errors),
                Self.format(Double(run.peakResidentBytes) / 1_000_000, 0),
                Self.format(run.cpuSecondsPerRequest * 1000, 2),
                String(run.originRequests),
            ])
        }
        lines += Self.table(rows)
        if runs.contains(where: \.ranOutOfURLs) {
            lines.append("* the list of distinct URLs ran out: later requests of that run were cached")
        }
        if let hot = hotKeys {
            lines.append("")
            lines.append(
                "hot keys: \(hot.requests) requests over \(hot.sources) uncached sources at \(hot.connections) "
                    + "conn. on a fresh server: origin saw \(hot.originRequests) requests; "
                    + "\(Self.format(hot.requestsPerSecond)) req/s, p95 \(Self.format(hot.p95Milliseconds)) ms, "
                    + "\(hot.errors) errors")
            lines.append(
                "  CPU \(Self.format(hot.cpuSecondsPerRequest * 1000, 2)) ms/request (cold run: "
                    + "\(Self.format(hot.coldCPUSecondsPerRequest * 1000, 2))); the same round again, all cached: "
                    + "\(Self.format(hot.cachedCPUSecondsPerRequest * 1000, 3)) ms/request, "
                    + "\(Self.format(hot.cachedRequestsPerSecond)) req/s, "
                    + "p95 \(Self.format(hot.cachedP95Milliseconds)) ms; peak RSS "
                    + "\(Self.format(Double(hot.peakResidentBytes) / 1_000_000, 0)) MB")
            let counters = ["decodes_total", "encodes_total", "coalesced_joins_total"].compactMap { name in
                hot.metrics[name].map { "\(name) \(Self.format($0, 0))" }
            }
            if !counters.isEmpty { lines.append("  server counters: " + counters.joined(separator: ", ")) }
        }
        lines.append("")
        lines.append("targets (issue 26):")
        for target in targets {
            lines.append(
                "  \(target.met ? "met   " : "MISSED") \(target.name): \(Self.format(target.measured, 2)) "
                    + "(\(target.comparison.rawValue) \(Self.format(target.bound, 2)))")
        }
        return lines.joined(separator: "\n")
    }

    static func format(_ value: Double, _ places: Int = 1) -> String {
        value.isFinite ? String(format: "%.\(places)f", value) : "n/a"
    }

    /// Rows padded to their columns' widths: the first two columns left-aligned, the rest right-aligned.
    static func table(_ rows: [[String]]) -> [String] {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column < 3 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
    }
}
