public import Foundation

/// Decides whether a URL from an untrusted source may be fetched (see ``SourcePolicy``).
///
/// ``check(_:)`` blocks while it resolves a host name: call it off Swift's cooperative pool (the pipeline runs
/// it on ``WorkerThreadPool/io``; as an ``HTTPDataLoader`` redirect policy it runs on the loader's I/O pool for
/// the first URL and on URLSession's delegate queue for redirects).
///
/// DNS rebinding: a host is refused when *any* of its addresses is non-public, and it is checked again at every
/// redirect. libcurl resolves the name once more when it connects, so a malicious DNS server that answers with
/// a public address to this check and a private one a moment later (TTL 0) is not stopped here: URLSession
/// offers no way to pin the checked address. Deployments that take URLs from strangers should also block
/// private ranges at the network layer (egress firewall or proxy).
///
/// Files: the path may not contain `..`; it and the root are resolved (symlinks followed) and the file must lie
/// inside the resolved root. A symlink swapped between this check and the read is not caught.
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
        let resolvedRoot = root.standardizedFileURL.resolvingSymlinksInPath().path
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let prefix = resolvedRoot.hasSuffix("/") ? resolvedRoot : resolvedRoot + "/"
        guard resolved.hasPrefix(prefix) else {
            throw refusal(url, "\(resolved) is outside the allowed root \(resolvedRoot)")
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
