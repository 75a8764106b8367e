/// Placeholder, replaced below.
public struct ConcurrencyExperiments: Sendable {
    public struct Result: Sendable, Codable { public var text: String }
    public init() {}
    public func run(log: @Sendable (String) -> Void) async throws -> Result { Result(text: "") }
}
