/// The order in which a run over a known list of inputs starts them: largest file first.
///
/// With `jobs` inputs in flight, a run ends when its last input ends. Started in directory order, a large photo
/// near the end keeps one job busy while the others have nothing left, and on the 2-core corpus run that tail
/// cost 9–10 % of the wall time (BENCHMARKS.md, 2026-12-01). Starting the largest first ("longest processing
/// time first", with the file's size as the estimate of its decoding time) leaves the small ones for the end,
/// where they fill the gaps.
///
/// - Inputs of unknown size (URLs, files the collector could not size) start first, in their own order: their
///   time is mostly waiting for the network, which overlaps the other jobs' decoding.
/// - Inputs of equal size keep their order (the sort is stable).
/// - Only the start order changes: results are still reported in input order.
///
/// A batch run (`--input-list`, `--shard`, `--skip-existing` or `--jsonl`) keeps input order: its inputs stream
/// through a bounded queue, and sorting a list would need the whole list in memory.
enum LargestFirstOrder {
    /// The indices of `byteCounts` in start order: `nil` first, then by decreasing size, ties in input order.
    static func indices(byteCounts: [Int?]) -> [Int] {
        byteCounts.indices.sorted { left, right in
            let leftSize = byteCounts[left] ?? Int.max
            let rightSize = byteCounts[right] ?? Int.max
            return leftSize != rightSize ? leftSize > rightSize : left < right
        }
    }
}
