import Foundation

extension ProcessStats {
    /// The names of the process's threads now (`/proc/self/task/*/comm`, at most 15 bytes each).
    public static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Threads now, not counting those whose name starts with one of `excludedPrefixes` (for example the
    /// in-process test server's `pinhole-srv` threads, which a real client would not have).
    public static func threadCount(excludingPrefixes excludedPrefixes: [String]) -> Int {
        threadNames().filter { name in !excludedPrefixes.contains { name.hasPrefix($0) } }.count
    }
}
