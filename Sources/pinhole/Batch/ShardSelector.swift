import PinholeShared

/// Which inputs one process of a sharded run takes: `--shard I/N` takes the inputs whose ``StableHash`` (of
/// the path or URL as listed, UTF-8) modulo `N` is `I`, so `N` processes given `0/N` … `(N-1)/N` over the same
/// list cover every input exactly once, without talking to each other.
///
/// `--shard auto/N` takes `I` from the scheduler: `JOB_COMPLETION_INDEX` (a Kubernetes Indexed Job: 0 …
/// completions − 1), else `SLURM_ARRAY_TASK_ID` minus `SLURM_ARRAY_TASK_MIN` (a Slurm job array of `N`
/// consecutive task IDs, such as `--array=0-7` or `--array=1-8`).
struct ShardSelector: Sendable, Hashable, CustomStringConvertible {
    /// This process's shard, `0 ..< count`.
    let index: Int
    /// The number of shards, at least 1.
    let count: Int

    /// The most shards a run may be split into.
    static let maxCount = 1_000_000

    init(index: Int, count: Int) {
        precondition(count >= 1 && (0..<count).contains(index), "shard \(index)/\(count) out of range")
        self.index = index
        self.count = count
    }

    /// Whether the input whose stable hash is `hash` belongs to this shard.
    func contains(hash: UInt64) -> Bool {
        hash % UInt64(count) == UInt64(index)
    }

    /// `I/N`, as `--shard` takes it.
    var description: String { "\(index)/\(count)" }

    /// Parses the value of `--shard`: `I/N` or `auto/N`.
    ///
    /// - Parameter environment: where `auto` looks up `JOB_COMPLETION_INDEX`, `SLURM_ARRAY_TASK_ID` and
    ///   `SLURM_ARRAY_TASK_MIN`.
    /// - Throws: ``UsageError`` for a malformed value, `N` outside 1…1,000,000, `I` outside `0 ..< N`, or `auto`
    ///   with neither scheduler variable set (or not a whole number).
    static func parse(_ text: String, environment: [String: String]) throws(UsageError) -> ShardSelector {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[1]) else {
            throw UsageError("--shard needs I/N or auto/N (for example 0/4), not '\(text)'")
        }
        guard (1...maxCount).contains(count) else {
            throw UsageError("--shard: N must be between 1 and \(maxCount), not \(count)")
        }
        let (index, source) = try resolveIndex(String(parts[0]), environment: environment)
        guard (0..<count).contains(index) else {
            throw UsageError("--shard: the index \(index)\(source) must be between 0 and \(count - 1)")
        }
        return ShardSelector(index: index, count: count)
    }

    /// The index `I` and, for `auto`, where it came from (for error messages).
    private static func resolveIndex(_ text: String, environment: [String: String]) throws(UsageError)
        -> (Int, String)
    {
        guard text == "auto" else {
            guard let index = Int(text) else { throw UsageError("--shard: '\(text)' is not a shard index") }
            return (index, "")
        }
        if let value = environment["JOB_COMPLETION_INDEX"] {
            guard let index = Int(value) else { throw UsageError("JOB_COMPLETION_INDEX is not a number: '\(value)'") }
            return (index, " (JOB_COMPLETION_INDEX)")
        }
        if let value = environment["SLURM_ARRAY_TASK_ID"] {
            guard let id = Int(value) else { throw UsageError("SLURM_ARRAY_TASK_ID is not a number: '\(value)'") }
            let minimum = environment["SLURM_ARRAY_TASK_MIN"].flatMap { Int($0) } ?? 0
            return (id - minimum, " (SLURM_ARRAY_TASK_ID \(id) - SLURM_ARRAY_TASK_MIN \(minimum))")
        }
        throw UsageError(
            "--shard auto/N needs JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or "
                + "SLURM_ARRAY_TASK_ID (Slurm job array) in the environment")
    }
}
