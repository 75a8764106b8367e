public import Foundation

/// What an untrusted ``SourcePolicy`` asks of the loaders a pipeline uses: check every address connected to,
/// read at most ``maxBytes``, and read files only inside ``allowedFileRoot``.
///
/// The pipeline passes it to ``DataLoading/restricted(by:)`` once, when it is created, and uses the loader that
/// call returns.
public struct SourceRestriction: Sendable {
    /// The most bytes one response or file may have (``SourcePolicy/untrustedMaxBytes``).
    public var maxBytes: Int
    /// The only directory files are read from; `nil` when the policy allows no file (the pipeline refuses every
    /// file URL before it reaches a loader).
    public var allowedFileRoot: URL?
    /// Throws to refuse connecting to `address` while fetching `url` (first hop and every redirect);
    /// ``UntrustedSourceGuard/checkConnection(to:for:)``. Called just before the socket opens; never blocks.
    public var checkConnection: @Sendable (_ address: IPAddress, _ url: URL) throws -> Void

    public init(
        maxBytes: Int, allowedFileRoot: URL?,
        checkConnection: @escaping @Sendable (_ address: IPAddress, _ url: URL) throws -> Void
    ) {
        self.maxBytes = maxBytes
        self.allowedFileRoot = allowedFileRoot
        self.checkConnection = checkConnection
    }
}

extension DataLoading {
    /// `self`, unchanged: a custom loader is used as given. The pipeline still checks the first URL and the size
    /// of what it returns; what such a loader connects to is its own business.
    public func restricted(by restriction: SourceRestriction) -> any DataLoading { self }
}

extension FileDataLoader {
    /// This loader with its byte limit clamped to the restriction's and files confined to its root.
    public func restricted(by restriction: SourceRestriction) -> any DataLoading {
        FileDataLoader(
            maxFileBytes: min(maxFileBytes, restriction.maxBytes), allowedRoot: restriction.allowedFileRoot,
            pool: pool)
    }
}

extension SchemeRoutingDataLoader {
    /// This router with both of its loaders restricted.
    public func restricted(by restriction: SourceRestriction) -> any DataLoading {
        SchemeRoutingDataLoader(http: http?.restricted(by: restriction), file: file.restricted(by: restriction))
    }
}
