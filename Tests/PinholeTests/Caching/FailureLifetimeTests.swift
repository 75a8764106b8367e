import Foundation
import Testing

@testable import Pinhole

/// How long a failure is kept: never past a day, and never a trap on a stored entry's far or odd expiry.
struct FailureLifetimeTests {
    @Test(
        arguments: [
            (9.3e15, Duration.seconds(86_400)), (1e300, .seconds(86_400)), (.infinity, .seconds(86_400)),
            (.nan, .zero), (-5, .zero), (30, .seconds(30)),
        ] as [(TimeInterval, Duration)])
    func aLifetimeInSecondsBecomesADurationOfAtMostADay(seconds: TimeInterval, duration: Duration) {
        // Given a lifetime read from a stored entry's expiry (a CRC-valid entry may say 1e16 s: seen trapping),
        // When it is turned into a duration, Then it is clamped to 0…1 day
        #expect(DiskCacheFreshness.duration(seconds: seconds) == duration)
    }
}
