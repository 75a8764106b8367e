extension Result where Failure == any Error {
    /// The result of an async throwing `body`: lets a test start work in an `async let` and look at its error
    /// later (`async let failing = Result { try await pipeline.image(for: request) }`), since an `async let`
    /// cannot be awaited inside `#expect(throws:)`'s closure.
    public init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
