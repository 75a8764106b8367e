import CPinholeVips
import Foundation
import Pinhole

/// Keeps libvips' block on its untrusted operations (`vips_block_untrusted_set`, a process-wide switch) on
/// exactly while untrusted decodes run, and keeps trusted decodes that need such an operation (ImageMagick for
/// BMP, and every other loader libvips marks untrusted) out of that time, so a trusted decode behaves as it always
/// did even in a process that also decodes untrusted bytes.
///
/// Two groups take turns: *untrusted* decodes, and *trusted decodes through an untrusted loader*. Any number of
/// one group run together; a newcomer waits while the other group runs, and also while the other group has
/// waiters and its own group is running (so neither group starves the other). The block goes on when the first
/// untrusted decode enters and off when the last one leaves. Trusted decodes through trusted loaders never wait.
///
/// Waiting happens on the decoding thread (a ``WorkerThreadPool`` thread, never Swift's cooperative pool) and
/// stops when the decode is cancelled (waiting uses no CPU time, so the time limit does not run out meanwhile).
/// Safe from any thread.
package final class UntrustedLoaderGate: @unchecked Sendable {
    /// The gate of the process (the libvips switch it guards is process-wide).
    static let shared = UntrustedLoaderGate()

    /// Which group a decode belongs to.
    package enum Group: Sendable {
        /// A decode with ``DecodingOptions/untrustedFormats`` set: runs with untrusted operations blocked.
        case untrusted
        /// A trusted decode whose loader libvips marks untrusted: runs with the block off.
        case trustedUntrustedLoader
    }

    /// The counts the turn-taking rule reads. Pure, so it can be tested without libvips.
    package struct State: Equatable, Sendable {
        package var running: [Group: Int] = [:]
        package var waiting: [Group: Int] = [:]

        package init() {}

        package func mayEnter(_ group: Group) -> Bool {
            let other: Group = group == .untrusted ? .trustedUntrustedLoader : .untrusted
            guard running[other, default: 0] == 0 else { return false }
            return running[group, default: 0] == 0 || waiting[other, default: 0] == 0
        }
    }

    // Invariant for @unchecked Sendable: `state` is read and written only while `condition` is locked, and the
    // libvips switch is flipped only there too, so entries, exits and the switch never interleave.
    private let condition = NSCondition()
    private var state = State()
    private let setBlocked: (Bool) -> Void

    /// - Parameter setBlocked: flips libvips' switch (`CPinholeVips_set_untrusted_blocked` by default).
    init(setBlocked: @escaping (Bool) -> Void = { CPinholeVips_set_untrusted_blocked($0 ? 1 : 0) }) {
        self.setBlocked = setBlocked
    }

    /// The counts now (for tests).
    var snapshot: State { condition.withLock { state } }

    /// Runs `body` as a member of `group`, after waiting for the group's turn.
    ///
    /// - Throws: what `body` throws; `CancellationError` or ``PinholeError/Code/decodingTimedOut`` when
    ///   `interruption` stops the decode while it waits.
    func run<T>(as group: Group, interruption: DecodeInterruption?, _ body: () throws -> T) throws -> T {
        try enter(group, interruption: interruption)
        defer { leave(group) }
        return try body()
    }

    private func enter(_ group: Group, interruption: DecodeInterruption?) throws {
        condition.lock()
        defer { condition.unlock() }
        state.waiting[group, default: 0] += 1
        defer { state.waiting[group, default: 0] -= 1 }
        while !state.mayEnter(group) {
            // Wake at least every 20 ms to notice a cancellation.
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.02))
            if let interruption, interruption.check() != .running {
                condition.broadcast()
                try interruption.throwIfStopped()
            }
        }
        state.running[group, default: 0] += 1
        if group == .untrusted, state.running[group] == 1 { setBlocked(true) }
    }

    private func leave(_ group: Group) {
        condition.lock()
        defer { condition.unlock() }
        state.running[group, default: 0] -= 1
        if group == .untrusted, state.running[group] == 0 { setBlocked(false) }
        condition.broadcast()
    }
}
