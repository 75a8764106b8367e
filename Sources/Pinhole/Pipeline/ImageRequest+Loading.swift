public import Foundation

extension ImageRequest {
    /// The header names that identify a user, compared case-insensitively: `authorization`, `cookie` and
    /// `proxy-authorization`. Their names and values join ``sourceKey`` as a 128-bit hash (never in clear), so the
    /// memory and disk caches keep one user's images apart from another's and from anonymous requests.
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

    /// The source key: the override or the URL without its fragment, then the private headers' hash if any.
    static func sourceKey(_ override: String?, url: URL, headers: [String: String]) -> String {
        let base = override ?? defaultSourceKey(for: url)
        let privateHeaders = headers
            .map { (name: $0.key.lowercased(), value: $0.value) }
            .filter { privateHeaderNames.contains($0.name) }
            .sorted { $0.name < $1.name }
        guard !privateHeaders.isEmpty else { return base }
        let text = privateHeaders.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
        return base + "#private=" + DiskCacheChecksum.fileName(forKey: text)
    }

    /// Whether the original bytes may live in the disk cache: not for files, `data:` URLs or bytes in hand.
    var usesDiskCacheForData: Bool {
        guard data == nil, let scheme = url.scheme?.lowercased() else { return false }
        return scheme != "file" && scheme != "data"
    }
}

extension ImageRequest {
    /// Equal when everything that identifies the request is: URL, source key (so the private headers), thumbnail,
    /// processors' identifiers, priority, options, headers, timeout and bytes in hand.
    public static func == (lhs: ImageRequest, rhs: ImageRequest) -> Bool {
        lhs.sourceKey == rhs.sourceKey && lhs.url == rhs.url && lhs.thumbnail == rhs.thumbnail
            && lhs.processing == rhs.processing && lhs.priority == rhs.priority && lhs.options == rhs.options
            && lhs.headers == rhs.headers && lhs.timeout == rhs.timeout && lhs.data == rhs.data
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sourceKey)
        hasher.combine(thumbnail)
        hasher.combine(processing)
        hasher.combine(priority)
        hasher.combine(options)
    }
}
