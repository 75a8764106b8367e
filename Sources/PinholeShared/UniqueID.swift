import Synchronization

/// Unique identifiers, process-wide: subscribers, queue tokens, observers. Never 0, never repeated (a 64-bit
/// counter that would take centuries to wrap). Safe from any isolation.
package enum UniqueID {
    private static let counter = Atomic<UInt64>(1)

    /// The next identifier (1, 2, 3, … in the order of the calls).
    package static func next() -> UInt64 { counter.wrappingAdd(1, ordering: .relaxed).oldValue }
}
