import CPinholeVips
import Foundation
import Pinhole

/// One decode's stop switch: its caller cancelled, or it ran past its deadline.
///
/// libvips checks an image's kill flag after every tile it computes; the shim sets that flag from libvips' own
/// progress callback once ``cancel()`` was called or the deadline passed (`CPinholeVipsInterrupt.h`), so a running
/// decode stops within about one output tile of work; and loaders that stream their input (JPEG, PNG, TIFF) read
/// it through a source whose reads fail once stopped, so they stop within a few KiB of input. Work that libvips
/// does in one piece from memory (a GIF or WebP frame, a HEIF image, an SVG tile) and TurboJPEG's decode are not
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

    /// How long the decode may run once ``startDeadline()`` was called.
    let deadline: Duration

    /// - Parameter deadline: how long the decode may run, counted from ``startDeadline()``.
    /// - Throws: ``PinholeError/Code/decodingFailed`` when the shim cannot allocate the switch.
    init(deadline: Duration) throws {
        guard let pointer = CPinholeVips_interrupt_new() else {
            throw PinholeError(.decodingFailed, "cannot allocate a decode interruption")
        }
        self.pointer = pointer
        self.deadline = deadline
    }

    deinit { CPinholeVips_interrupt_free(pointer) }

    /// Starts the clock: the decode stops ``deadline`` from now. Call on the decoding thread as its work begins
    /// (time spent queued for a thread does not count).
    func startDeadline() {
        let (seconds, attoseconds) = deadline.components
        let microseconds = seconds.multipliedReportingOverflow(by: 1_000_000)
        let total = microseconds.overflow ? Int64.max : microseconds.partialValue &+ attoseconds / 1_000_000_000_000
        CPinholeVips_interrupt_start_deadline(pointer, max(1, total))
    }

    /// Asks the decode to stop (any thread).
    func cancel() { CPinholeVips_interrupt_cancel(pointer) }

    /// Units of progress so far (tiles libvips reported done, reads of the input): progress that does not depend on
    /// the machine's speed (for tests).
    package var ticks: Int { CPinholeVips_interrupt_ticks(pointer) }

    /// Whether the decode must stop, and why (reads the clock; the first reason sticks).
    func check() -> Reason {
        switch Int(CPinholeVips_interrupt_check(pointer)) {
        case Int(CPinholeVips_cancelled): .cancelled
        case Int(CPinholeVips_timed_out): .timedOut
        default: .running
        }
    }

    /// Throws `CancellationError` once cancelled, ``PinholeError/Code/decodingTimedOut`` once past the deadline.
    func throwIfStopped() throws {
        switch check() {
        case .running:
            return
        case .cancelled:
            throw CancellationError()
        case .timedOut:
            throw PinholeError(.decodingTimedOut, "the decode ran past its deadline of \(deadline) and was stopped")
        }
    }
}
