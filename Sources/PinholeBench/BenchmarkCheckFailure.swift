/// A benchmark measured something other than what it names: a lookup that was to hit the memory cache missed, or
/// a download brought a body of another size than the one served. Thrown instead of reporting figures that would
/// be those of the wrong work.
public struct BenchmarkCheckFailure: Error, CustomStringConvertible {
    /// What was measured wrongly, for the log.
    public let description: String

    /// A failure with `description` as its text.
    public init(_ description: String) {
        self.description = description
    }
}
