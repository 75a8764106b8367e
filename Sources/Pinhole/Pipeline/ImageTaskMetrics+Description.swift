extension ImageTaskMetrics: CustomStringConvertible {
    /// One line: the source (`failed` without one), ` (joined)` for a joiner, the total, then the three longest
    /// stages, in milliseconds: `network 182 ms: first_byte 120, decode 40, download 12` (a memory hit:
    /// `memoryCache 0.01 ms: memory_cache_lookup 0.01`).
    public var description: String {
        let source = (self.source?.rawValue ?? "failed") + (joinedExistingJob ? " (joined)" : "")
        let longest = stages.sorted { $0.value > $1.value }.prefix(3)
        let parts = longest.map { "\($0.key.rawValue) \(Self.milliseconds($0.value))" }
        return "\(source) \(Self.milliseconds(total)) ms" + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
    }

    /// `duration` in milliseconds: whole from 10 ms, else with two decimals (`0.01`, `3.25`, `182`).
    static func milliseconds(_ duration: Duration) -> String {
        let value = duration / .milliseconds(1)
        if value >= 10 { return String(Int(value.rounded())) }
        return String((value * 100).rounded() / 100)
    }
}
