import CPinholeVips
import Foundation
import Pinhole

/// Process-wide libvips setup, done once on first use.
///
/// The first use of any PinholeVips type initialises libvips (thread-safe, `pthread_once` in the shim) with:
/// - the operation cache off (`vips_cache_set_max(0)`: thumbnails are not reused, the cache only costs memory);
/// - one thread per operation (`vips_concurrency_set(1)`: Pinhole runs several decodes in parallel instead);
/// - libvips' ORC vector (SIMD) paths on only where every ORC program is compiled and freed under one lock of the
///   shim's (`CPinholeVipsOrcLock.c`): liborc 0.4.33 corrupts its code memory when two threads compile or free
///   programs at once (found by AddressSanitizer in the cancellation storm; RELIABILITY.md section 4). When the
///   lock is not reached (see `orcLockInstalled`), the paths are turned off, at a CPU cost per thumbnail
///   (BENCHMARKS.md, "Figures moved out of doc comments");
/// - GLib log handlers for every domain that capture warnings (libvips, libpng, libjpeg, GLib…) into a
///   bounded ring buffer of 64 messages. Nothing is printed to stderr, so a terminal UI stays intact. A failed
///   decode's ``PinholeError`` message also carries the warnings logged on its own thread (libpng's errors reach
///   libvips only as warnings, next to no error text or a bare "libpng read error").
///
/// Safe from any isolation.
public enum Vips {
    /// The shim's `CPinholeVips_init` result: 0 when libvips started. Swift runs this once, lazily, thread-safely.
    private static let initStatus: Int32 = CPinholeVips_init()

    /// Whether libvips' ORC vector paths are on: `true` when `orcLockInstalled` and `VIPS_NOVECTOR` is unset.
    package static var vectorPathsEnabled: Bool {
        _ = initStatus
        return CPinholeVips_vector_enabled() != 0
    }

    /// Whether libvips' calls to `orc_program_compile` and `orc_program_free` reach the shim's locked wrappers.
    package static var orcLockInstalled: Bool {
        CPinholeVips_orc_lock_installed() != 0
    }

    /// Whether libvips' calls to its error functions reach the shim's per-thread wrappers
    /// (CPinholeVipsErrorCapture.c); without them, every error goes to libvips' one global buffer.
    package static var errorCaptureInstalled: Bool {
        CPinholeVips_error_capture_installed() != 0
    }

    /// ORC programs compiled and freed through the locked wrappers since the process started.
    package static var orcProgramCounts: (compiled: Int, freed: Int) {
        (CPinholeVips_orc_compile_count(), CPinholeVips_orc_free_count())
    }

    /// The libvips version, for example `"8.14.1"`.
    public static var version: String {
        _ = initStatus
        return String(cString: CPinholeVips_version())
    }

    /// Returns and removes the warnings libvips and GLib emitted since the last call, oldest first.
    ///
    /// The buffer keeps the newest 64 messages (each cut at 255 bytes); when older ones were dropped, the
    /// list starts with a line saying how many. Messages look like `"VIPS: …"` (the GLib log domain first); one
    /// that is only its domain is left out.
    public static func drainWarnings() -> [String] {
        _ = initStatus
        var warnings: [String] = []
        let dropped = CPinholeVips_take_dropped_warning_count()
        if dropped > 0 { warnings.append("Pinhole: \(dropped) older warnings were dropped") }
        var buffer = [CChar](repeating: 0, count: 256)
        while CPinholeVips_take_warning(&buffer, buffer.count) == 1 {
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            // A message that is only its domain (`"VIPS:"`: libvips logs empty lines after some warnings) says nothing.
            guard !text.hasSuffix(":") || text.contains(" ") else { continue }
            warnings.append(text)
        }
        return warnings
    }

    /// Adds `message` to the warnings ``drainWarnings()`` returns, as `"Pinhole: message"`.
    static func note(_ message: String) {
        _ = initStatus
        CPinholeVips_note(message)
    }

    /// Whether libvips' operations marked untrusted (ImageMagick's loader among them) are blocked now: while an
    /// untrusted decode runs (see ``VipsDecoder``). Not API: for tests.
    package static var untrustedOperationsBlocked: Bool {
        _ = initStatus
        return CPinholeVips_operation_blocked("magickload_buffer") == 1
    }

    /// Throws unless libvips is initialised.
    static func ensureInitialized() throws {
        guard initStatus == 0 else {
            throw PinholeError(.decodingFailed, "libvips failed to initialise: \(takeErrorMessage())")
        }
    }

    /// Takes (copies and clears) libvips' errors, trimmed, with the warnings this thread logged inside
    /// ``capturingWarnings(_:)`` (which also keeps this thread's errors apart from other decodes'): libvips reports
    /// some failures' causes only as a warning (libpng's errors, such as `"CgBI: unhandled critical chunk"` or `"IDAT:
    /// CRC error"`, next to no error text or a bare `"vipspng: libpng read error"`). Gives `"libvips gave no error; it
    /// warned: …"` when the buffer is empty, `"<error> (libvips warned: …)"` when both have words, `"no message from
    /// libvips"` when neither has.
    ///
    /// - Parameter ownThreadOnly: `true` for a step that computes no pixels (a header read): then only the errors
    ///   raised on this thread count. Otherwise, when this thread raised none, the errors libvips' worker threads
    ///   left in its process-global buffer are taken, which under concurrency may be another decode's words too:
    ///   treat the text as a diagnostic. The captured warnings are always this thread's own.
    static func takeErrorMessage(ownThreadOnly: Bool = false) -> String {
        var buffer = [CChar](repeating: 0, count: 1024)
        CPinholeVips_take_error(&buffer, buffer.count, ownThreadOnly ? 1 : 0)
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let joined = lines.filter { !$0.isEmpty }.joined(separator: "; ")
        let warned = capturedWarnings()
        switch (joined.isEmpty, warned.isEmpty) {
        case (true, true): return "no message from libvips"
        case (true, false): return "libvips gave no error; it warned: \(warned)"
        case (false, false) where !joined.contains(warned): return "\(joined) (libvips warned: \(warned))"
        default: return joined
        }
    }

    /// Runs `body` with the warnings logged on this thread captured, for ``takeErrorMessage()`` to report when
    /// libvips fails without an error message. Synchronous: call on the thread that runs the libvips work.
    static func capturingWarnings<T>(_ body: () throws -> T) rethrows -> T {
        _ = initStatus
        CPinholeVips_capture_begin()
        defer { CPinholeVips_capture_end() }
        return try body()
    }

    /// The warnings captured on this thread so far (`"; "`-separated), or `""` outside ``capturingWarnings(_:)``.
    private static func capturedWarnings() -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        CPinholeVips_captured_warnings(&buffer, buffer.count)
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
