public import Foundation
public import Pinhole

extension HTTPDataLoader {
    /// Limits and connection settings; each limit is a libcurl option (named in its documentation).
    public struct Configuration: Sendable {
        /// Largest body accepted, in bytes; 50,000,000 by default. A larger `Content-Length` fails before the
        /// body (`CURLOPT_MAXFILESIZE_LARGE`); a body without one (chunked) or a compressed body that grows past it
        /// is stopped while receiving. Fails with ``PinholeError/Code/dataTooLarge``.
        public var maxResponseBytes: Int = 50_000_000
        /// How long a transfer may receive less than 1 byte per second before it fails as stalled; 15 s by
        /// default. libcurl's low-speed limit (`CURLOPT_LOW_SPEED_LIMIT` 1, `CURLOPT_LOW_SPEED_TIME`): whole
        /// seconds (a fraction is rounded up, at least 1 s), checked once a second, and libcurl averages the speed
        /// over up to the last 5 s, so a server that goes silent after sending bytes is caught up to about 7 s
        /// after this timeout (measured: 7.3–7.8 s with 1 s); one that sends nothing at all, up to a second after it.
        /// Fails with ``PinholeError/Code/timeout``.
        public var stallTimeout: Duration = .seconds(15)
        /// Longest time for a whole transfer, redirects included, from the moment the loader's thread starts it
        /// (`CURLOPT_TIMEOUT_MS`, set for each redirect hop to what is left; millisecond precision); 60 s by
        /// default. ``DataRequest/timeout`` overrides it per request. Fails with ``PinholeError/Code/timeout``.
        public var deadline: Duration = .seconds(60)
        /// Longest time to open a connection, TLS handshake included (`CURLOPT_CONNECTTIMEOUT_MS`); 10 s by
        /// default. Fails with ``PinholeError/Code/timeout``.
        public var connectTimeout: Duration = .seconds(10)
        /// Most redirects followed (by the loader, hop by hop); 5 by default. A longer chain or a loop fails
        /// with ``PinholeError/Code/tooManyRedirects``.
        public var maxRedirects: Int = 5
        /// Connections open to one host at once (`CURLMOPT_MAX_HOST_CONNECTIONS`); 6 by default. Further
        /// transfers to that host wait inside libcurl; over HTTP/2 they share one connection.
        public var maxConnectionsPerHost: Int = 6
        /// Headers added to every request (for example `User-Agent`); ``DataRequest/headers`` override them by
        /// name. `["User-Agent": "Pinhole"]` by default.
        public var additionalHeaders: [String: String] = ["User-Agent": "Pinhole"]
        /// Whether bodies must look like images: HTML, JSON, XML or text then fail early with
        /// ``PinholeError/Code/notAnImage``. `true` by default; `false` to fetch documents such as feeds.
        public var requiresImageContent: Bool = true
        /// Decides, for every connection the loader opens (the first URL's and each redirect's, every address
        /// of the host that libcurl tries), whether the address may be connected to. Called on the loader's
        /// thread just before the socket is opened (`CURLOPT_OPENSOCKETFUNCTION`), with the address and the URL
        /// being fetched; throw to refuse it: no socket is opened and no SYN sent. When every address of the
        /// host is refused, the transfer fails with the first error thrown. `nil` (every address) by default.
        /// Must not block. When set, proxies from the environment are not used (the checked address is the
        /// one connected to). The untrusted ``SourcePolicy`` sets it to
        /// ``UntrustedSourceGuard/checkConnection(to:for:)``.
        public var connectionPolicy: (@Sendable (_ address: IPAddress, _ url: URL) throws -> Void)?
        /// Fixed addresses for host names, in libcurl's `HOST:PORT:ADDRESS` form (`CURLOPT_RESOLVE`): the
        /// connection uses them instead of DNS. For tests (DNS rebinding on loopback) and benchmarks.
        package var resolveOverrides: [String] = []

        public init() {}
    }
}
