import Foundation
public import Pinhole

/// Two loaders with separate connection pools: sources under an `--allow-source` prefix go to `allowed`, every
/// other source to `publicOnly`.
///
/// The split is what makes a path prefix hold. Addresses are checked when a connection is opened, and a kept-alive
/// connection is reused without a new check: with one pool, a source outside the prefix but on the allowed origin
/// (`/secret` beside `/img/`) would reuse the connection an allowed source opened. Here the public pool never
/// holds a connection to a private address, and only sources under a prefix reach the pool that may.
public struct SourceRoutingLoader: DataLoading {
    let prefixes: [SourcePrefix]
    let allowed: any DataLoading
    let publicOnly: any DataLoading

    /// - Parameters:
    ///   - prefixes: the `--allow-source` prefixes.
    ///   - allowed: loads sources under a prefix (its connections may reach the prefixes' own origins).
    ///   - publicOnly: loads every other source (its connections reach public addresses only).
    public init(prefixes: [SourcePrefix], allowed: any DataLoading, publicOnly: any DataLoading) {
        self.prefixes = prefixes
        self.allowed = allowed
        self.publicOnly = publicOnly
    }

    public func loadData(for request: DataRequest) async throws -> DataResponse {
        let loader = prefixes.contains { $0.contains(request.url) } ? allowed : publicOnly
        return try await loader.loadData(for: request)
    }
}
