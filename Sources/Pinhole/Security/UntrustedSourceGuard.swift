public import Foundation

/// Decides whether a URL from an untrusted source may be fetched (see ``SourcePolicy``).
///
/// Two checks, at two moments:
/// - ``check(_:)``, before a request starts: the scheme, the file root, and the host — an address literal in any
///   spelling, or a name whose addresses (from ``resolver``) are refused when *any* of them is non-public. It
///   blocks while it resolves: call it off Swift's cooperative pool (the pipeline runs it on
///   ``WorkerThreadPool/hostResolution`` for names, ``WorkerThreadPool/io`` for files).
/// - ``checkConnection(to:for:)``, as the HTTP loader's connection policy: every address the loader is about
///   to open a socket to, for the first URL and every redirect, on the loader's thread. A refused address never
///   gets a SYN.
///
/// DNS rebinding: libcurl resolves the name again when it connects, so a DNS server that answers a public
/// address to the first check and a private one to the connection (TTL 0) passes ``check(_:)`` — and is stopped
/// by ``checkConnection(to:for:)``, which judges the address actually connected to. Under this check the loader
/// connects directly (environment proxies are not used).
///
/// Files: the path may not contain `..`; it and the root are resolved by realpath(3) (a path that does not
/// resolve is refused) and the file must lie inside the resolved root. The read checks again on the descriptor it
/// opened (``FileDataLoader/allowedRoot``), so a link swapped between this check and the read is caught too.
public struct UntrustedSourceGuard: Sendable {
    /// The directory files may come from; `nil` refuses every file URL.
    public let allowedFileRoot: URL?
    /// Resolves host names that are not address literals.
    public let resolver: any HostResolving

    public init(allowedFileRoot: URL?, resolver: any HostResolving = SystemHostResolver()) {
        self.allowedFileRoot = allowedFileRoot
        self.resolver = resolver
    }

    /// Refuses `url` unless it is http(s) to a public host or a file under ``allowedFileRoot``. Blocking.
    ///
    /// - Throws: ``PinholeError`` with ``PinholeError/Code/untrustedSource`` (the message says why), or
    ///   ``PinholeError/Code/networkFailure`` when the host name does not resolve.
    public func check(_ url: URL) throws {
        switch url.scheme?.lowercased() {
        case "http", "https":
            try checkHost(of: url)
        case "file":
            try checkFile(url)
        default:
            throw refusal(url, "only http and https URLs (and files under an allowed root) are accepted")
        }
    }

    /// Refuses a connection to `address` unless it is public (see ``IPAddress/nonPublicReason``): the
    /// connection check of untrusted pipelines' HTTP loader (``SourceRestriction/checkConnection``). Never blocks.
    ///
    /// - Parameters:
    ///   - address: the address a socket is about to be opened to (IPv4, or IPv6 including IPv4-mapped forms).
    ///   - url: the URL being fetched through it (for the message).
    /// - Throws: ``PinholeError`` with ``PinholeError/Code/untrustedSource``.
    public func checkConnection(to address: IPAddress, for url: URL) throws {
        if let reason = address.nonPublicReason {
            throw refusal(url, "the connection would go to \(address), \(reason)")
        }
    }

    /// The checks that need neither DNS nor the file system (scheme, address literals, a file root, `..`), so it
    /// never blocks: the pipeline runs it before starting a job, and ``check(_:)`` later on the I/O pool.
    func checkWithoutResolving(_ url: URL) throws {
        switch url.scheme?.lowercased() {
        case "http", "https":
            guard let host = Self.host(of: url), !host.isEmpty else { throw refusal(url, "the URL has no host") }
            if let address = IPAddress(host), let reason = address.nonPublicReason {
                throw refusal(url, "\(host) is \(address), \(reason)")
            }
        case "file":
            guard allowedFileRoot != nil else { throw refusal(url, "no file root is allowed for untrusted sources") }
            guard !url.path.split(separator: "/").contains("..") else { throw refusal(url, "the path contains '..'") }
        default:
            throw refusal(url, "only http and https URLs (and files under an allowed root) are accepted")
        }
    }

    private func checkHost(of url: URL) throws {
        guard let host = Self.host(of: url), !host.isEmpty else { throw refusal(url, "the URL has no host") }
        if let address = IPAddress(host) {
            if let reason = address.nonPublicReason { throw refusal(url, "\(host) is \(address), \(reason)") }
            return
        }
        guard !host.contains(":"), !host.contains("%") else { throw refusal(url, "malformed host \(host)") }
        for address in try resolver.resolve(host) {
            if let reason = address.nonPublicReason {
                throw refusal(url, "\(host) resolves to \(address), \(reason)")
            }
        }
    }

    private func checkFile(_ url: URL) throws {
        guard let root = allowedFileRoot else { throw refusal(url, "no file root is allowed for untrusted sources") }
        let path = url.path
        guard !path.split(separator: "/").contains("..") else { throw refusal(url, "the path contains '..'") }
        let resolvedRoot = try Self.resolvedRoot(root, for: url)
        switch ConfinedPath.resolve(path) {
        case .success(let resolved):
            guard ConfinedPath.isInside(resolved, root: resolvedRoot) else {
                throw refusal(url, "\(resolved) is outside the allowed root \(resolvedRoot)")
            }
        case .failure(.notFound):
            // Missing: "not found" only where the path would lie inside the root, so a missing file elsewhere
            // reads as refused and nothing about what exists outside the root is told.
            guard ConfinedPath.isInside(ConfinedPath.resolvingExistingAncestor(path), root: resolvedRoot) else {
                throw refusal(url, "\(path) is outside the allowed root \(resolvedRoot)")
            }
            throw PinholeError(.fileNotFound, "no file at \(path)")
        case .failure(.unresolvable(let reason)):
            // Fail closed: a path that cannot be resolved cannot be shown to lie inside the root.
            throw refusal(url, "\(path) does not resolve (\(reason))")
        }
    }

    /// The allowed root resolved by realpath(3); refuses every file when it does not resolve.
    static func resolvedRoot(_ root: URL, for url: URL) throws -> String {
        switch ConfinedPath.resolve(root.standardizedFileURL.path) {
        case .success(let resolved): return resolved
        case .failure(let failure):
            throw PinholeError(
                .untrustedSource,
                "refused untrusted source \(url.absoluteString): the allowed root \(root.path) does not resolve "
                    + "(\(failure))")
        }
    }

    /// The host without brackets, lowercased, without a trailing dot.
    static func host(of url: URL) -> String? {
        guard var host = url.host?.lowercased() else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }

    private func refusal(_ url: URL, _ reason: String) -> PinholeError {
        PinholeError(.untrustedSource, "refused untrusted source \(url.absoluteString): \(reason)")
    }
}
