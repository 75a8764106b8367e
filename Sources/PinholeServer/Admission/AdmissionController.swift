import PinholeShared

/// Admission control for answers that must be made (not found in memory): by count at arrival, by memory before
/// each decode and encode.
///
/// - **Arrival** (``admitted(_:)``): at most ``Limits/activeLimit`` answers are made at once; later ones wait in
///   one queue, first come first served, for at most ``Limits/queueTimeout``. When ``Limits/queueLimit`` wait
///   already, a new one is refused at once (``AdmissionError/Reason/queueFull``): the client gets its 503 before
///   any work, never after it.
/// - **Memory** (``withMemory(_:_:)``): work that will hold bytes (a decode, by its header's estimate; an encode)
///   starts when they fit in ``Limits/memoryBudget`` beside what is reserved; otherwise it waits, in its own
///   first-come queue (an admitted answer never waits behind an arrival that waits for it to finish), for at most
///   ``Limits/queueTimeout``. Work that alone exceeds the budget is refused at once
///   (``AdmissionError/Reason/overBudget``).
///
/// Cancellation ends a wait at once (`CancellationError`). Thread-safe.
public final class AdmissionController: Sendable {
    /// The limits; see the type's description.
    public struct Limits: Sendable, Equatable {
        /// Answers made at once (≥ 1).
        public var activeLimit: Int
        /// Arrivals that may wait for a place (≥ 0); more are refused at once.
        public var queueLimit: Int
        /// The longest wait, for a place or for memory.
        public var queueTimeout: Duration
        /// Bytes that admitted work may reserve at once.
        public var memoryBudget: Int

        public init(activeLimit: Int, queueLimit: Int, queueTimeout: Duration, memoryBudget: Int) {
            self.activeLimit = max(1, activeLimit)
            self.queueLimit = max(0, queueLimit)
            self.queueTimeout = queueTimeout
            self.memoryBudget = max(0, memoryBudget)
        }
    }

    /// The state now, for metrics.
    public struct Snapshot: Sendable, Equatable {
        /// Answers being made.
        public var active = 0
        /// Arrivals waiting for a place.
        public var queued = 0
        /// Bytes reserved by running work.
        public var memoryReserved = 0
        /// Work waiting for memory.
        public var memoryWaiting = 0
        /// Refusals since the start, by reason.
        public var rejections: [AdmissionError.Reason: Int] = [:]

        public init(
            active: Int = 0, queued: Int = 0, memoryReserved: Int = 0, memoryWaiting: Int = 0,
            rejections: [AdmissionError.Reason: Int] = [:]
        ) {
            self.active = active
            self.queued = queued
            self.memoryReserved = memoryReserved
            self.memoryWaiting = memoryWaiting
            self.rejections = rejections
        }
    }

    public let limits: Limits
    let state = Locked(State())

    public init(limits: Limits) {
        self.limits = limits
    }

    /// Runs `work` once a place is free (at once, after a wait in the queue, or never).
    /// - Throws: ``AdmissionError`` (`queueFull` at once, `queueTimeout` after the wait), `CancellationError`, or
    ///   what `work` throws.
    public func admitted<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        try await wait(for: .place)
        defer { release(.place) }
        return try await work()
    }

    /// Runs `work` once `bytes` fit in the memory budget beside what is reserved; they are reserved until it ends.
    /// - Throws: ``AdmissionError`` (`overBudget` at once, `queueTimeout` after the wait), `CancellationError`, or
    ///   what `work` throws.
    public func withMemory<T: Sendable>(_ bytes: Int, _ work: () async throws -> T) async throws -> T {
        let bytes = max(0, bytes)
        try await wait(for: .memory(bytes))
        defer { release(.memory(bytes)) }
        return try await work()
    }

    /// The state now.
    public var snapshot: Snapshot {
        state.withLock { state in
            Snapshot(
                active: state.active, queued: state.arrivals.count, memoryReserved: state.reserved,
                memoryWaiting: state.memoryWaiters.count, rejections: state.rejections)
        }
    }
}

/// Why ``AdmissionController`` refused work.
public struct AdmissionError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The arrival queue was full: refused before any work.
        case queueFull = "queue_full"
        /// The wait (for a place or for memory) outlasted the queue timeout.
        case queueTimeout = "queue_timeout"
        /// The work alone needs more memory than the whole budget.
        case overBudget = "over_budget"
    }

    public var reason: Reason
    /// Bytes the refused work asked for (`overBudget` only).
    public var bytes: Int?

    public init(reason: Reason, bytes: Int? = nil) {
        self.reason = reason
        self.bytes = bytes
    }

    public var description: String {
        switch reason {
        case .queueFull: "the admission queue is full"
        case .queueTimeout: "no place or memory became free within the queue timeout"
        case .overBudget: "the work needs \(bytes ?? 0) bytes, more than the whole memory budget"
        }
    }
}
