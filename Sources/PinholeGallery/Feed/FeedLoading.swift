public import Foundation
import Pinhole

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches the bytes of a feed document: the single injection point of the feed screen's loading.
///
/// Called off the main actor. Throws ``FeedError`` (``FeedError/Kind/offline``, ``FeedError/Kind/httpStatus``,
/// ``FeedError/Kind/unreachable``) or `CancellationError`; any other error is shown as
/// ``FeedError/Kind/unreachable``.
public typealias FeedLoader = @Sendable (URL) async throws -> Data

/// Ready-made ``FeedLoader``s.
public enum FeedLoaders {
    /// The real loader: `http`/`https` through one `URLSession` (status checked, cancellation honoured),
    /// `file` URLs read on ``WorkerThreadPool/io`` (never on Swift's cooperative pool).
    ///
    /// - Parameter timeout: the request timeout in seconds (at least 1 s on Linux); 15 by default.
    public static func live(timeout: TimeInterval = 15) -> FeedLoader {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = max(1, timeout)
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        return { url in
            try Task.checkCancellation()
            switch url.scheme?.lowercased() {
            case "file":
                return try await readFile(url)
            case "http", "https":
                return try await fetch(url, session: session)
            default:
                throw FeedError(.unreachable, "unsupported feed address \(url.absoluteString)")
            }
        }
    }

    /// Turns a command-line argument into a URL: `http(s)://…` and `file://…` as given, anything else a path.
    public static func url(forArgument argument: String) -> URL {
        let lowered = argument.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("file://"),
            let url = URL(string: argument)
        {
            return url
        }
        return URL(fileURLWithPath: argument)
    }

    private static func readFile(_ url: URL) async throws -> Data {
        let path = url.path
        return try await WorkerThreadPool.io.run { () throws -> Data in
            guard FileManager.default.fileExists(atPath: path) else {
                throw FeedError(.unreachable, "no feed file at \(path)")
            }
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw FeedError(.unreachable, "cannot read \(path): \(error.localizedDescription)")
            }
        }
    }

    private static func fetch(_ url: URL, session: URLSession) async throws -> Data {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(from: url)
        } catch let error as URLError where error.code == .cancelled {
            throw CancellationError()
        } catch {
            try Task.checkCancellation()
            throw FeedError(.offline, "cannot reach \(url.host ?? url.absoluteString): \(error.localizedDescription)")
        }
        try Task.checkCancellation()
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw FeedError(
                .httpStatus, "\(url.absoluteString) answered HTTP \(http.statusCode)", statusCode: http.statusCode)
        }
        return data
    }
}
