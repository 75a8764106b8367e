import Foundation
import Pinhole
import PinholeVips

#if canImport(Glibc)
    import Glibc
#endif

extension ThumbnailStages {
    /// Runs `body` and adds the process CPU time it took (user + system of every thread, milliseconds) to
    /// `milliseconds`.
    @discardableResult
    static func timed<T>(_ milliseconds: inout Double, _ body: () throws -> T) rethrows -> T {
        let start = processCPUSeconds()
        defer { milliseconds += (processCPUSeconds() - start) * 1000 }
        return try body()
    }

    /// `CLOCK_PROCESS_CPUTIME_ID` in seconds (nanosecond resolution).
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Blocking: the whole file.
    static func read(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The kind the profile groups a file under.
    static func kind(_ staged: VipsDecoder.StagedThumbnail) -> String {
        switch staged.format {
        case .jpeg where staged.route == .libvips: "jpeg (libvips path)"
        case .jpeg: staged.isProgressiveJPEG ? "jpeg progressive" : "jpeg baseline"
        default: staged.format.name
        }
    }

    /// The 1-minute load average (`/proc/loadavg`); 0 if unknown.
    static func loadAverage() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return 0 }
        return text.split(separator: " ").first.flatMap { Double($0) } ?? 0
    }
}
