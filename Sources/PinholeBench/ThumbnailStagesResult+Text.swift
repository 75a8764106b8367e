import Foundation

extension ThumbnailStagesResult {
    /// The human table: stages per kind, then the progressive JPEGs one by one, every scan against DC-only.
    public var text: String {
        let columns = ["read", "header", "filter", "decode", "colour", "resize", "encode", "write", "sum", "e2e"]
        var lines = [
            "stages: \(files.count) images → \(size) px JPEG q\(quality), median of \(runs) rounds per file, "
                + String(format: "CPU ms per image (process CPU time), load average %.1f", loadAverage),
            pad("kind", 22) + pad("files", 6) + columns.map { pad($0, 9, right: true) }.joined() + "  routes",
        ]
        for kind in kinds {
            let values =
                ThumbnailStagesResult.Stages.keyPaths.map { kind.stages[keyPath: $0] }
                + [kind.stages.sum, kind.endToEnd]
            let routes = kind.routes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append(
                pad(kind.kind, 22) + pad("\(kind.files)", 6)
                    + values.map { pad(String(format: "%.1f", $0), 9, right: true) }.joined() + "  " + routes)
        }
        lines.append(
            """
            decode = entropy decoding + inverse DCT (TurboJPEG to planar YCbCr; DC-only: to YCbCr, upsampled), \
            colour = the rest of the scaled decode (upsampling, YCbCr → RGB); libvips path: decode = the loader at \
            its shrink-on-load, colour = its ICC transforms (with - without profiles), resize = the rest of \
            vips_thumbnail. e2e = VipsDecoder + VipsEncoder + file I/O as 'pinhole thumbnail' runs them.
            """)
        let progressive = files.filter { $0.progressiveEveryScan != nil }
        if !progressive.isEmpty {
            lines.append("")
            lines.append(
                "progressive JPEGs, decode + encode at \(size) px: every scan (the path before issue 15) vs fewer "
                    + "scans (DC-only at 1/8, no last-bit refinements at 1/4)")
            lines.append(
                pad("file", 34) + pad("route", 22) + pad("every scan", 12, right: true)
                    + pad("fewer", 10, right: true) + pad("×", 7, right: true))
            for file in progressive {
                let every = file.progressiveEveryScan ?? 0
                let fewer = file.progressiveFewerScans ?? 0
                lines.append(
                    pad(file.name, 34) + pad(file.route, 22)
                        + pad(String(format: "%.1f", every), 12, right: true)
                        + pad(String(format: "%.1f", fewer), 10, right: true)
                        + pad(fewer > 0 ? String(format: "%.2f", every / fewer) : "-", 7, right: true))
            }
            let every = progressive.reduce(0) { $0 + ($1.progressiveEveryScan ?? 0) }
            let fewer = progressive.reduce(0) { $0 + ($1.progressiveFewerScans ?? 0) }
            lines.append(
                pad("all \(progressive.count)", 56) + pad(String(format: "%.1f", every), 12, right: true)
                    + pad(String(format: "%.1f", fewer), 10, right: true)
                    + pad(progressiveSpeedup.map { String(format: "%.2f", $0) } ?? "-", 7, right: true)
                    + "  (target ≥ 3×)")
        }
        return lines.joined(separator: "\n")
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        guard text.count < width else { return text + " " }
        let padding = String(repeating: " ", count: width - text.count)
        return right ? padding + text : text + padding
    }
}
