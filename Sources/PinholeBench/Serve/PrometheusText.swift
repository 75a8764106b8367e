/// Reads the samples of a Prometheus text exposition (<https://prometheus.io/docs/instrumenting/exposition_formats/>):
/// `name{labels} value` lines, comments skipped.
enum PrometheusText {
    /// Each sample by its name and labels as written (`decodes_total`, `cache_hits_total{tier="memory"}`), with
    /// `prefix` removed; histogram buckets (`_bucket`) are left out.
    static func samples(_ text: String, removingPrefix prefix: String = "pinhole_") -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            var name = String(line[..<space])
            if name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
            if name.contains("_bucket{") { continue }
            samples[name] = value
        }
        return samples
    }
}
