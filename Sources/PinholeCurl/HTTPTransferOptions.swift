import Foundation
import Pinhole

/// A request and the loader's configuration resolved into what libcurl is told for one transfer.
///
/// Made on the caller's side (so a bad header fails the call before anything starts); read by the loader's
/// thread when it sets up the libcurl handle.
struct HTTPTransferOptions: Sendable {
    /// The URL as libcurl receives it (`absoluteString`, already percent-encoded).
    var url: String
    /// Request header lines (`Name: value`): the configured headers, then the request's (same name: the
    /// request wins), then the validators.
    var headerLines: [String]
    /// The lines of ``headerLines`` sent once a redirect has left the request's origin
    /// (``CrossOriginRedirects``).
    var crossOriginHeaderLines: [String]
    var maxResponseBytes: Int
    /// `CURLOPT_LOW_SPEED_TIME`: whole seconds, at least 1.
    var stallSeconds: Int
    var deadlineMilliseconds: Int
    var connectTimeoutMilliseconds: Int
    var maxRedirects: Int
    var requiresImageContent: Bool
    var connectionPolicy: (@Sendable (IPAddress, URL) throws -> Void)?
    var resolveOverrides: [String]

    /// - Throws: ``PinholeError/Code/invalidRequest`` for a header name that is not an HTTP token or a header
    ///   value with a line break (which would smuggle in another header).
    init(request: DataRequest, configuration: HTTPDataLoader.Configuration) throws {
        url = request.url.absoluteString
        var headers: [(name: String, value: String)] = []
        func set(_ name: String, _ value: String) {
            headers.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            headers.append((name, value))
        }
        for (name, value) in configuration.additionalHeaders.sorted(by: { $0.key < $1.key }) { set(name, value) }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) { set(name, value) }
        if let etag = request.ifNoneMatch { set("If-None-Match", etag) }
        if let date = request.ifModifiedSince { set("If-Modified-Since", date) }
        for header in headers { try Self.validate(header.name, header.value, url: url) }
        // "Name:" alone would tell libcurl to drop a header it adds itself; "Name;" sends it with an empty value.
        func line(_ header: (name: String, value: String)) -> String {
            header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
        }
        headerLines = headers.map(line)
        crossOriginHeaderLines = headers.filter { CrossOriginRedirects.forwards($0.name) }.map(line)
        maxResponseBytes = max(0, configuration.maxResponseBytes)
        stallSeconds = Self.wholeSeconds(roundingUp: configuration.stallTimeout)
        deadlineMilliseconds = Self.milliseconds(request.timeout ?? configuration.deadline)
        connectTimeoutMilliseconds = Self.milliseconds(configuration.connectTimeout)
        maxRedirects = max(0, configuration.maxRedirects)
        requiresImageContent = configuration.requiresImageContent
        connectionPolicy = configuration.connectionPolicy
        resolveOverrides = configuration.resolveOverrides
    }

    /// At least 1 ms (libcurl reads 0 as "no timeout").
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let total = seconds.multipliedReportingOverflow(by: 1000)
        guard !total.overflow, seconds >= 0 else { return seconds < 0 ? 1 : Int.max / 2 }
        return max(1, Int(total.partialValue) + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
    }

    /// What is left of the deadline for the next hop, in libcurl's milliseconds: at least 1 (a chain past its
    /// deadline then fails on that hop as a timeout). The elapsed time is rounded down, so the hop's timeout is
    /// never shorter than what is really left and the chain never times out before its deadline.
    static func remainingMilliseconds(ofDeadline deadline: Int, after elapsed: Duration) -> Int {
        let (seconds, attoseconds) = elapsed.components
        guard seconds >= 0 else { return max(1, deadline) }
        let total = seconds.multipliedReportingOverflow(by: 1000)
        guard !total.overflow else { return 1 }
        let elapsedMilliseconds = Int(total.partialValue) + Int(attoseconds / 1_000_000_000_000_000)
        return max(1, deadline - elapsedMilliseconds)
    }

    /// At least 1 s; a fraction counts as a whole second.
    static func wholeSeconds(roundingUp duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 1 }
        return max(1, Int(clamping: seconds) + (attoseconds > 0 ? 1 : 0))
    }

    private static func validate(_ name: String, _ value: String, url: String) throws {
        let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard !name.isEmpty, name.allSatisfy({ tokenCharacters.contains($0) }) else {
            throw PinholeError(.invalidRequest, "\(url): the header name \"\(name)\" is not an HTTP token")
        }
        // By scalar: "\r\n" is one Character, equal to neither "\r" nor "\n".
        guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
            throw PinholeError(.invalidRequest, "\(url): the value of header \(name) contains a line break")
        }
    }
}
