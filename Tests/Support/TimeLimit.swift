public import Testing

extension Trait where Self == TimeLimitTrait {
    /// A time limit of `minutes` × ``LoadFactor/current`` (rounded up), read when the suite is discovered: the
    /// same test takes longer on a loaded machine, and a limit is a hang detector, not a speed assertion. Every
    /// bounded wait inside a test (10 s × the factor by default) stays well inside it.
    public static func timeLimit(scaledMinutes minutes: Int) -> Self {
        .timeLimit(.minutes(Int((Double(minutes) * LoadFactor.current).rounded(.up))))
    }
}
