import Pinhole
import PinholeShared
import Synchronization

/// A clock that moves only when a test calls ``advance(by:)``: TTL tests without sleeping.
struct ManualClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private final class State: Sendable {
        let now = Locked(Instant(offset: .zero))
    }

    private let state = State()

    var now: Instant { state.now.withLock { $0 } }
    var minimumResolution: Duration { .zero }

    /// Moves the clock forward.
    func advance(by duration: Duration) {
        state.now.withLock { $0 = $0.advanced(by: duration) }
    }

    /// Not used by the caches; returns at once after checking cancellation.
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
    }
}
