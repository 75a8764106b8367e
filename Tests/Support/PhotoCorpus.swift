public import Foundation

/// The real-photo corpus that `scripts/make-corpus.sh` builds (`make corpus`).
public enum PhotoCorpus {
    /// `$PINHOLE_CORPUS`, else `${XDG_CACHE_HOME:-~/.cache}/pinhole/corpus` (what `pinhole gallery`'s demo serves).
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let corpus = environment["PINHOLE_CORPUS"], !corpus.isEmpty { return URL(fileURLWithPath: corpus) }
        let cacheHome =
            environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return URL(fileURLWithPath: cacheHome).appendingPathComponent("pinhole/corpus")
    }
}
