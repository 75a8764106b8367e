/// Turns a host name into the addresses a connection to it may use (the ``UntrustedSourceGuard``'s view of DNS).
///
/// `resolve` blocks (DNS may take seconds): callers run it off Swift's cooperative pool, on a
/// ``WorkerThreadPool``. Implementations must be thread-safe.
public protocol HostResolving: Sendable {
    /// Every address `host` resolves to (IPv4 and IPv6), in any order.
    ///
    /// - Parameter host: a host name without brackets or port (`images.example.com`).
    /// - Throws: ``PinholeError`` with ``PinholeError/Code/networkFailure`` when the name does not resolve.
    func resolve(_ host: String) throws -> [IPAddress]
}
