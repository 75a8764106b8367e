import Foundation

extension ThumbnailComparisonResult {
    /// The human report: one line per tool and job count, then the targets of issue 7.
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
        lines.append("Targets (Pinhole's images/s over the tool's at the same jobs; in brackets CPU ×):")
        let jobCounts = Array(Set(rows.map(\.jobs))).sorted()
        let targets: [(Tool, Double, String)] = [
            (.vipsthumbnail, 1.5, "≥ 1.5× vipsthumbnail (a process per image)"),
            (.pyvips, 1.0, "≥ 1.0× pyvips (in-process libvips)"),
            (.imagemagick, 3.0, "≥ 3× ImageMagick"),
            (.pillowDraft, 1.0, "≥ 1.0× Pillow with draft"),
            (.turbojpegFloor, 1 / 1.25, "JPEG within 1.25× of the TurboJPEG floor (≥ 0.80×)"),
        ]
        for (tool, goal, label) in targets {
            let figures = jobCounts.compactMap { jobs in
                pinholeSpeedup(tool, jobs: jobs).map { (jobs, $0, pinholeCPUAdvantage(tool, jobs: jobs) ?? 0) }
            }
            let shown = figures.map {
                String(format: "%d job%@: %.2f× %@ [%.2f×]", $0.0, $0.0 == 1 ? "" : "s", $0.1,
                       $0.1 >= goal ? "met" : "MISSED", $0.2)
            }
            lines.append("  \(label): " + shown.joined(separator: "; "))
        }
        for tool in [Tool.pinhole, .pinholeJPEG] {
            if let scaling = scaling(tool) {
                lines.append(String(format: "  %@ scaling 1 → %d jobs ≥ 1.8×: %.2f× %@", tool.rawValue,
                                    jobCounts.last ?? 1, scaling, scaling >= 1.8 ? "met" : "MISSED"))
            }
        }
        return lines.joined(separator: "\n")
    }
}
