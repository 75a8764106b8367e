public import Foundation

/// What `pinhole serve` is started with (each field is one of its options; defaults as documented there).
public struct ServerConfiguration: Sendable {
    /// Where to listen: numeric host and port; `127.0.0.1:8080` by default.
    public var daemon = HTTPDaemon.Settings()
    /// The signer of processing URLs; `nil` only with ``allowsUnsigned``.
    public var signer: URLSigner?
    /// Whether a URL without a valid signature is served; `false` by default (403).
    public var allowsUnsigned = false
    /// Source prefixes that may reach private, loopback and link-local addresses (every other source must
    /// resolve to public addresses, checked at connect time, redirects included).
    public var allowedSources: [SourcePrefix] = []
    /// The disk cache of sources and thumbnails; none by default.
    public var cacheDirectory: URL?
    /// Bytes the disk cache may hold; 1 GB by default.
    public var cacheSizeLimit = 1_000_000_000
    /// The most pixels a source may declare; 50,000,000 by default.
    public var maxSourcePixels = 50_000_000
    /// The most bytes read from a source; 20,000,000 by default.
    public var maxSourceBytes = 20_000_000
    /// The most frames of an animated answer (`an:1`); sources with more get their first frame. 256 by default.
    public var maxAnimationFrames = 256
    /// The most pixels of an animated answer's frames together, at the thumbnail size; past it, the first frame.
    /// 16,000,000 by default, and never more than an eighth of the work share of ``memoryBudget`` (the frames and
    /// the encoder's copy, at 4 bytes a pixel).
    public var maxAnimationPixels = 16_000_000
    /// Decodes and encodes at once; the core count by default.
    public var concurrency = ProcessInfo.processInfo.activeProcessorCount
    /// Bytes of memory for images: the caches and the work in progress (shares: ``memoryShares``); 256 MB by
    /// default.
    public var memoryBudget = 256_000_000
    /// Answers made at once (each downloading, decoding or encoding), the places of admission; `nil` (the
    /// default) for twice ``concurrency``: one downloading while one decodes, per decoding thread.
    public var activeLimit: Int?
    /// Arrivals that may wait for one of the places where answers are made (``activeLimit``); more are
    /// answered 503 with `Retry-After` at once; 32 × the core count by default.
    public var queueLimit = 32 * ProcessInfo.processInfo.activeProcessorCount
    /// The longest wait in that queue, or for memory, before a 503; 5 s by default.
    public var queueTimeout: Duration = .seconds(5)
    /// `Cache-Control: max-age` of image answers, in seconds; 86,400 (a day) by default.
    public var maxAge = 86_400
    /// The deadline of one request's load, decode and encode; 30 s by default.
    public var timeout: Duration = .seconds(30)
    /// How long a drain waits for requests in flight before it stops anyway; 30 s by default.
    public var drainTimeout: Duration = .seconds(30)

    public init() {
        daemon.port = 8080
    }
}

/// A source prefix of `--allow-source`: scheme, host and port must equal the source's, and the source's path
/// must start with the prefix's (so `http://cdn` does not admit `http://cdn.evil.example`). The path limits the
/// sources clients may name; a redirect from such a source may go anywhere on the prefix's origin (and to public
/// addresses), never to another private one.
public struct SourcePrefix: Sendable, Hashable, CustomStringConvertible {
    let scheme: String
    let host: String
    let port: Int
    let path: String

    /// - Returns: `nil` unless `text` is an absolute `http(s)` URL with a host.
    public init?(_ text: String) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        port = url.port ?? (scheme == "https" ? 443 : 80)
        path = url.path.isEmpty ? "/" : url.path
    }

    /// Whether `url` has this prefix's scheme, host and port.
    public func isSameOrigin(as url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return false }
        return scheme == self.scheme && host == self.host && (url.port ?? (scheme == "https" ? 443 : 80)) == port
    }

    /// Whether `url` lies under this prefix: the same origin, and a path that starts with the prefix's at a
    /// segment boundary. A `.` or `..` segment never matches (`/img/../secret` is not under `/img`).
    public func contains(_ url: URL) -> Bool {
        guard isSameOrigin(as: url) else { return false }
        let path = url.path.isEmpty ? "/" : url.path
        guard !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }),
            !url.absoluteString.lowercased().contains("%2e")
        else { return false }
        // A path prefix ends at a segment: "/img" admits "/img" and "/img/…", not "/imgs".
        return path == self.path || path.hasPrefix(self.path.hasSuffix("/") ? self.path : self.path + "/")
    }

    public var description: String { "\(scheme)://\(host):\(port)\(path)" }
}
