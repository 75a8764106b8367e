import CPinholeVips
import Foundation
import Pinhole

/// One decode's stop switch: its caller cancelled, or it used up its CPU time limit.
///
/// The decode's pixels are computed on its own thread, strip by strip, and the switch is checked before each strip;
/// loaders that stream their input (JPEG, PNG, TIFF) read it through a source whose reads fail once the switch is
/// off, so they stop within a few KiB of input (`CPinholeVipsInterrupt.h`). The time limit is the decoding
/// thread's CPU time (its `pthread_getcpuclockid` clock), so a busy machine never stops a good decode. Work that
/// libvips does in one piece (reading a header, a GIF or WebP frame, a HEIF image, an SVG tile, an interlaced PNG,
/// which libvips hands to threads of its own and whose CPU time is not counted) and TurboJPEG's decode are not
/// interrupted: the decode checks ``throwIfStopped()`` between its steps instead.
package final class DecodeInterruption: @unchecked Sendable {
    // Invariant for @unchecked Sendable: `pointer` is set once in init and freed in deinit; the C object behind it
    // is read and written only through the shim's C11 atomics, so any thread may call `cancel()` while the
    // decoding thread calls `check()`.
    let pointer: OpaquePointer

    /// Why a decode stops.
    enum Reason: Equatable {
        case running
        case cancelled
        case timedOut
    }

    /// The CPU time the decode may use once ``startTimeLimit()`` was called.
    let timeLimit: Duration

    /// - Parameter timeLimit: the CPU time the decode may use, counted from ``startTimeLimit()``.
    /// - Throws: ``PinholeError/Code/decodingFailed`` when the shim cannot allocate the switch.
    init(timeLimit: Duration) throws {
        guard let pointer = CPinholeVips_interrupt_new() else {
            throw PinholeError(.decodingFailed, "cannot allocate a decode interruption")
        }
        self.pointer = pointer
        self.timeLimit = timeLimit
    }

    deinit { CPinholeVips_interrupt_free(pointer) }

    /// Starts the clock: the decode stops once the calling thread has used ``timeLimit`` more CPU time. Call on the
    /// decoding thread as its work begins (time spent queued for a thread, or waiting, does not count).
    func startTimeLimit() {
        let (seconds, attoseconds) = timeLimit.components
        let microseconds = seconds.multipliedReportingOverflow(by: 1_000_000)
        let total = microseconds.overflow ? Int64.max : microseconds.partialValue &+ attoseconds / 1_000_000_000_000
        CPinholeVips_interrupt_start_limit(pointer, max(1, total))
    }

    /// Asks the decode to stop (any thread).
    func cancel() { CPinholeVips_interrupt_cancel(pointer) }

    /// Units of progress so far (strips computed, reads of the input): progress that does not depend on the
    /// machine's speed (for tests).
    package var ticks: Int { CPinholeVips_interrupt_ticks(pointer) }

    /// Whether the decode must stop, and why (reads the clock; the first reason sticks).
    func check() -> Reason {
        switch Int(CPinholeVips_interrupt_check(pointer)) {
        case Int(CPinholeVips_cancelled): .cancelled
        case Int(CPinholeVips_timed_out): .timedOut
        default: .running
        }
    }

    /// Throws `CancellationError` once cancelled, ``PinholeError/Code/decodingTimedOut`` once past the time limit.
    func throwIfStopped() throws {
        switch check() {
        case .running:
            return
        case .cancelled:
            throw CancellationError()
        case .timedOut:
            throw PinholeError(
                .decodingTimedOut, "the decode used its limit of \(timeLimit) of CPU time and was stopped")
        }
    }
}
