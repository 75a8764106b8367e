/// Waits until `condition` holds, checking it every `every`, for at most `timeout` × ``LoadFactor/current``;
/// returns whether it held. A test `#require`s the result when what follows depends on it, so a condition
/// that never comes fails the test at the bound instead of letting it wait for ever.
///
/// The bound is generous on purpose (a loaded 2-core machine runs other builds and ~300 tests at once): it is
/// not a speed assertion, only the point where "not yet" becomes "never". Cancelling the calling task (a
/// test's time limit) ends the wait at once, returning the condition's last value. The condition runs in the
/// caller's isolation (a `@MainActor` test may read main-actor state in it).
public func eventually(
    timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(5),
    isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + LoadFactor.scaled(timeout)
    while clock.now < deadline {
        if try await condition() { return true }
        do {
            try await Task.sleep(for: interval)
        } catch {
            break  // cancelled: give the last answer now
        }
    }
    return try await condition()
}
