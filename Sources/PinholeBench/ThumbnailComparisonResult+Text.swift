import Foundation

extension ThumbnailComparisonResult {
    /// The human report: one line per tool and job count, then the targets of issue 15.
    public var text: String {
        var lines = [
            "Thumbnailers compared: \(images) images (\(jpegs) JPEG) from \(corpus) → \(size) px JPEG q\(quality);",
            "median of \(runs) interleaved rounds after \(warmups) warm-up; \(activeProcessors) active processors",
            "",
            "  tool                  jobs   images/s  spread   CPU s/image  peak RSS MB   Pinhole ×  CPU ×",
        ]
        for row in rows {
            let speedup = pinholeSpeedup(row.tool, jobs: row.jobs).map { String(format: "%.2f", $0) } ?? "-"
            let cpu = pinholeCPUAdvantage(row.tool, jobs: row.jobs).map { String(format: "%.2f", $0) } ?? "-"
            lines.append(
                "  " + row.tool.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0)
                    + String(
                        format: "%6d %10.1f  ±%4.1f%%  %11.3f  %11.0f   %8@  %5@", row.jobs,
                        row.imagesPerSecond.median, row.imagesPerSecond.relativeSpread * 50, row.cpuSecondsPerImage,
                        Double(row.peakRSSBytes) / 1_048_576, speedup, cpu))
        }
        lines.append("")
        lines.append("Pinhole × = Pinhole's images/s over the tool's at the same jobs; CPU × = the tool's CPU")
        lines.append("s/image over Pinhole's (barely affected by other load on the machine).")
        lines.append("Targets of issue 15 (Pinhole's images/s over the tool's at the same jobs; in brackets CPU ×):")
        let jobCounts = Array(Set(rows.map(\.jobs))).sorted()
        let others = Tool.allCases.filter { !$0.isJPEGOnly && $0 != .pinhole }
        let fastest = jobCounts.compactMap { jobs -> String? in
            guard
                let tool = others.max(by: {
                    (row($0, jobs: jobs)?.imagesPerSecond.median ?? 0)
                        < (row($1, jobs: jobs)?.imagesPerSecond.median ?? 0)
                }),
                let speedup = pinholeSpeedup(tool, jobs: jobs)
            else { return nil }
            return String(
                format: "%d job%@: %.2f× %@ (%@) [%.2f×]", jobs, jobs == 1 ? "" : "s", speedup,
                speedup >= 1.25 ? "met" : "MISSED", tool.rawValue,
                pinholeCPUAdvantage(tool, jobs: jobs) ?? 0)
        }
        lines.append("  ≥ 1.25× the fastest other tool: " + fastest.joined(separator: "; "))
        let floor = jobCounts.compactMap { jobs in
            pinholeSpeedup(.turbojpegFloor, jobs: jobs).map {
                String(
                    format: "%d job%@: %.2f× %@ [%.2f×]", jobs, jobs == 1 ? "" : "s", $0,
                    $0 >= 1 ? "met" : "MISSED", pinholeCPUAdvantage(.turbojpegFloor, jobs: jobs) ?? 0)
            }
        }
        lines.append("  JPEG ≥ 1.0× the TurboJPEG 1/8 floor: " + floor.joined(separator: "; "))
        for tool in [Tool.pinhole, .pinholeJPEG] {
            if let scaling = scaling(tool) {
                lines.append(
                    String(
                        format: "  %@ scaling 1 → %d jobs ≥ 1.8×: %.2f× %@", tool.rawValue,
                        jobCounts.last ?? 1, scaling, scaling >= 1.8 ? "met" : "MISSED"))
            }
        }
        let memory = jobCounts.compactMap { jobs -> String? in
            guard let pinhole = row(.pinhole, jobs: jobs), let batch = row(.vipsthumbnailBatch, jobs: jobs) else {
                return nil
            }
            return String(
                format: "%d job%@: %.0f vs %.0f MB %@", jobs, jobs == 1 ? "" : "s",
                Double(pinhole.peakRSSBytes) / 1_048_576, Double(batch.peakRSSBytes) / 1_048_576,
                pinhole.peakRSSBytes <= batch.peakRSSBytes ? "met" : "MISSED")
        }
        lines.append("  peak RSS ≤ vipsthumbnail-batch's: " + memory.joined(separator: "; "))
        return lines.joined(separator: "\n")
    }
}
