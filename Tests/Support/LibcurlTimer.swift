/// What a test may assert about when a libcurl timeout fires, measured with `ContinuousClock`.
///
/// libcurl times its deadlines with `CLOCK_MONOTONIC_RAW`, which NTP does not adjust; `ContinuousClock` reads a
/// clock that NTP slews by up to 500 ppm. So a timeout of 1 s that libcurl fires on time can measure a few
/// microseconds short here (CI saw 0.999995 s, and 0.99997 s on a redirect chain). A lower bound on a
/// libcurl timeout allows for that and for nothing more: no early firing fits in it.
public enum LibcurlTimer {
    /// The least `duration` a libcurl timeout of `duration` can measure with `ContinuousClock`: 0.2 % less (four
    /// times the kernel's largest slew).
    public static func earliestEnd(of duration: Duration) -> Duration {
        duration - duration / 500
    }
}
