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

    @Test(arguments: [0.0, 0.1, 0.5, 0.9, 0.999])
    func aKeptWaitCountedDownNeverEndsBeforeItsLastSecond(fraction: TimeInterval) throws {
        // Given a wait of 1 s and of 120 s asked for at a second and `fraction`
        let now = Date(timeIntervalSince1970: 1_796_600_000 + fraction)
        for wait in [1, 120] {
            // When it is kept as a date and read back just before it ends
            let kept = HTTPRetryAfter.date(endingWaitOf: wait, from: now)
            let almost = now.addingTimeInterval(TimeInterval(wait) - 0.001)
            // Then a second is still left, and at the start the whole wait (at most one more second)
            #expect(HTTPRetryAfter.seconds(kept, now: almost, limit: 3_600) == 1, "\(kept) at \(almost)")
            let atStart = try #require(HTTPRetryAfter.seconds(kept, now: now, limit: 3_600))
            #expect((wait...wait + 1).contains(atStart), "\(atStart)")
        }
    }
}
