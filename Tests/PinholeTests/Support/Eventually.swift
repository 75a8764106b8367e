import Foundation
import PinholeTestSupport

/// Waits until `condition` holds, checking every 5 ms, for at most `timeout` × the load factor (a generous bound
/// for a loaded machine, not a speed assertion); returns whether it held. `#require` it when the rest of the
/// test depends on it. See `PinholeTestSupport.eventually` and Tests/README.md.
func eventually(timeout: Duration = .seconds(10), _ condition: @Sendable () async -> Bool) async -> Bool {
    await PinholeTestSupport.eventually(timeout: timeout, condition)
}
