public import Foundation

extension ImageRequest {
    /// The header names that identify a user, compared case-insensitively: `authorization`, `cookie` and
    /// `proxy-authorization`. Like every request header they join ``sourceKey`` only hashed (never in clear).
    public static let privateHeaderNames: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// A request for bytes already in hand (a database blob, a download made elsewhere): nothing is loaded, and
    /// the disk cache is not used for the bytes. `id` is the ``sourceKey``: the memory cache and coalescing treat
    /// two requests with one `id` as the same bytes.
    ///
    /// - Parameters:
    ///   - id: names the bytes (unique per image).
    ///   - data: the encoded image.
    ///   - thumbnail: the box; `nil` decodes full size.
    ///   - processors: applied in order after decoding; none by default.
    ///   - priority: `normal` by default.
    ///   - options: cache behaviour; none by default.
    public init(
        id: String, data: Data, thumbnail: ThumbnailOptions? = nil, processors: [any ImageProcessing] = [],
        priority: Priority = .normal, options: Options = []
    ) {
        var components = URLComponents()
        components.scheme = Self.inlineDataScheme
        components.path = id
        self.init(
            url: components.url ?? URL(fileURLWithPath: "/"), data: data, thumbnail: thumbnail, priority: priority,
            options: options, sourceKey: id, processors: processors, headers: [:], timeout: nil)
    }

    /// The scheme of the placeholder URL of a request made from bytes in hand.
    static let inlineDataScheme = "pinhole-data"

    /// The source key: the override or the URL without its fragment, then a hash of every request header.
    ///
    /// Every header joins, not only the private ones: a server may answer per `X-Api-Key`, or with
    /// `Vary: Accept` or `Vary: X-User`, and the memory cache is read before any response is seen, so only a key
    /// that holds every header keeps one user's (or one format's) image from another request.
    static func sourceKey(_ override: String?, url: URL, headers: [String: String]) -> String {
        let base = override ?? defaultSourceKey(for: url)
        guard !headers.isEmpty else { return base }
        // Length-prefixed, so no name or value (a line break included: the loader refuses those only later)
        // can make one set of headers read as another.
        let text = headers.map { (name: $0.key.lowercased(), value: $0.value) }.sorted { $0.name < $1.name }
            .map { "\($0.name.utf8.count):\($0.name)\($0.value.utf8.count):\($0.value)" }.joined()
        return base + "#headers=" + DiskCacheChecksum.fileName(forKey: text)
    }

    /// Whether the original bytes may live in the disk cache: not for files, `data:` URLs or bytes in hand.
    var usesDiskCacheForData: Bool {
        guard data == nil, let scheme = url.scheme?.lowercased() else { return false }
        return scheme != "file" && scheme != "data"
    }
}

extension ImageRequest {
    /// Equal when everything that identifies the request is: URL, source key (so the private headers), thumbnail,
    /// processors' identifiers, priority, options, headers, timeout, bytes in hand and placeholder.
    public static func == (lhs: ImageRequest, rhs: ImageRequest) -> Bool {
        lhs.sourceKey == rhs.sourceKey && lhs.url == rhs.url && lhs.thumbnail == rhs.thumbnail
            && lhs.processing == rhs.processing && lhs.priority == rhs.priority && lhs.options == rhs.options
            && lhs.headers == rhs.headers && lhs.timeout == rhs.timeout && lhs.data == rhs.data
            && lhs.placeholder == rhs.placeholder
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sourceKey)
        hasher.combine(thumbnail)
        hasher.combine(processing)
        hasher.combine(priority)
        hasher.combine(options)
    }
}
