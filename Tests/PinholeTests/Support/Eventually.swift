import Foundation

/// Waits until `condition` holds, checking every 5 ms, for at most `timeout` (a generous bound for a loaded
/// machine, not a speed assertion). Returns whether it held.
func eventually(timeout: Duration = .seconds(10), _ condition: @Sendable () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return await condition()
}
