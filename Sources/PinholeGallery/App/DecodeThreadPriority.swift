import Foundation
import Glibc
import Pinhole
import PinholeShared

/// Gives the process's decoding threads a lower scheduling priority (a higher nice value) than the render loop,
/// the terminal's equivalent of decoding at a utility QoS on Apple platforms: when both want a core, the frame
/// wins; when the loop is idle, decodes still use every core.
///
/// Matches threads by name (`/proc/self/task/TID/comm`): ``WorkerThreadPool/cpu``'s `pinhole-cpu-N` and
/// libvips' own `libvips worker` threads. New threads appear lazily, so ``apply()`` is called periodically;
/// each thread is looked at once. Raising niceness needs no privilege. Thread-safe.
final class DecodeThreadPriority: Sendable {
    /// Thread-name prefixes of decoding threads.
    static let prefixes = ["pinhole-cpu", "libvips worker"]

    /// The nice value given to them (0…19).
    let nice: Int32
    private let seen = Locked<Set<Int32>>([])

    init(nice: Int32) {
        self.nice = min(19, max(0, nice))
    }

    /// Renices decoding threads not seen before. Returns how many were changed.
    @discardableResult
    func apply() -> Int {
        guard nice > 0, let threads = ProcessStats.threadIDs() else { return 0 }
        var changed = 0
        for thread in threads where seen.withLock({ $0.insert(thread).inserted }) {
            guard let name = ProcessStats.threadName(thread), Self.prefixes.contains(where: name.hasPrefix) else {
                continue
            }
            if setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(thread), nice) == 0 { changed += 1 }
        }
        return changed
    }
}
