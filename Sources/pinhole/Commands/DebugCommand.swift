import Foundation
import Pinhole
import PinholeVips

/// `pinhole debug …`: the verbs that the reliability tests run as child processes (``help``).
///
/// - `storm [--seed N] [--requests N]`: the cancellation storm (``CancellationStorm``), one JSON line.
/// - `disk-cache-writer DIR --seed N [--limit BYTES]`: writes self-checking disk-cache entries until killed
///   (``DiskCacheWriter``).
/// - `disk-cache-check DIR [--limit BYTES]`: reads every entry back and verifies it, one JSON line.
/// - `rss-many FILE…  [--size PIXELS]`: thumbnails all files at once, reports peak RSS as one JSON line.
/// - `decode-warnings FILE…`: decodes each file, reports the warnings libvips captured as one JSON line
///   (``DecodeWarningsProbe``; its test reads this process's standard error).
/// - `dc-only-stream FILE OUT`: writes the stream DC-only decoding gives libjpeg for the progressive JPEG FILE
///   (exit 1 when the path declines it), for `scripts/callgrind-dc-only.sh`.
///
/// - `memory-estimate FILE… [--size PIXELS]`: the decode-memory estimate of a thumbnail of each file, one JSON
///   line each (``MemoryEstimateProbe``).
///
/// Exit status: 0 when the run's own checks held, 1 when one failed, 2 for a usage error.
enum DebugCommand {
    static func run(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let rest = Array(arguments.dropFirst())
        switch arguments.first {
        case "storm": return try await CancellationStorm.run(rest)
        case "disk-cache-writer": return try await DiskCacheWriter.runWriter(rest)
        case "disk-cache-check": return try await DiskCacheWriter.runCheck(rest)
        case "rss-many": return try await ConcurrentRSSProbe.run(rest)
        case "decode-warnings": return try await DecodeWarningsProbe.run(rest)
        case "dc-only-stream": return try await dcOnlyStream(rest)
        case "memory-estimate": return try await MemoryEstimateProbe.run(rest)
        case "--help", "-h", "help":
            print(help)
            return 0
        case let other?: throw UsageError("unknown debug verb '\(other)' (see 'pinhole debug --help')")
        case nil: throw UsageError("no debug verb given")
        }
    }

    /// The text `pinhole debug --help` prints.
    static let help = """
        USAGE: pinhole debug <verb> [arguments]

        Probes the reliability tests and benchmarks run as child processes; each prints one JSON line.

        VERBS:
          memory-estimate FILE... [--size PIXELS]
                               The decode-memory estimate of a thumbnail of each file (memory admission).
          storm [--seed N] [--requests N]
                               The cancellation storm: every caller gets exactly one answer.
          disk-cache-writer DIR --seed N [--limit BYTES]
                               Writes self-checking disk-cache entries until killed.
          disk-cache-check DIR [--limit BYTES]
                               Reads every entry back and verifies it.
          rss-many FILE... [--size PIXELS]
                               Thumbnails all files at once; reports peak RSS.
          decode-warnings FILE...
                               Decodes each file; reports the warnings libvips captured.
          dc-only-stream FILE OUT
                               Writes the stream DC-only decoding gives libjpeg for a progressive JPEG.

        Exit status: 0 when the run's own checks held, 1 when one failed, 2 for a usage error.
        """

    /// The value after `name` in `arguments`, as an integer; `fallback` when absent.
    static func integer(_ name: String, in arguments: [String], default fallback: Int) throws(UsageError) -> Int {
        guard let index = arguments.firstIndex(of: name) else { return fallback }
        guard index + 1 < arguments.count, let value = Int(arguments[index + 1]) else {
            throw UsageError("\(name) needs an integer")
        }
        return value
    }

    /// `arguments` without options (`--x VALUE` pairs).
    static func positionals(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var skip = false
        for argument in arguments {
            if skip {
                skip = false
                continue
            }
            if argument.hasPrefix("--") {
                skip = true
                continue
            }
            result.append(argument)
        }
        return result
    }

    /// One line of sorted-key JSON on stdout.
    static func printJSON<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        print(String(decoding: data, as: UTF8.self))
    }

    /// Open file descriptors of this process (entries of `/proc/self/fd`, less the one the listing uses).
    static func openFileDescriptorCount() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 1) - 1
    }
}

/// SplitMix64: a small seeded generator, so a run's plan is the same for the same seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension DebugCommand {
    /// `dc-only-stream FILE OUT`.
    static func dcOnlyStream(_ arguments: [String]) async throws(UsageError) -> Int32 {
        guard arguments.count == 2 else { throw UsageError("dc-only-stream needs FILE and OUT") }
        let (input, output) = (arguments[0], arguments[1])
        do {
            return try await WorkerThreadPool.io.run {
                let data = try FileAccess.read(input)
                guard let stream = VipsDecoder.dcOnlyStream(data) else {
                    FileHandle.standardError.write(Data("\(input): the DC-only path declines it\n".utf8))
                    return 1
                }
                try FileAccess.write(Data(stream), to: output)
                return 0
            }
        } catch {
            FileHandle.standardError.write(Data("pinhole debug dc-only-stream: \(error)\n".utf8))
            return 1
        }
    }
}
