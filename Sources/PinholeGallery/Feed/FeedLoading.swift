public import Foundation
import Pinhole
import PinholeCurl

/// Fetches the bytes of a feed document: the single injection point of the feed screen's loading.
///
/// Called off the main actor. Throws ``FeedError`` (``FeedError/Kind/offline``, ``FeedError/Kind/httpStatus``,
/// ``FeedError/Kind/unreachable``) or `CancellationError`; any other error is shown as
/// ``FeedError/Kind/unreachable``.
public typealias FeedLoader = @Sendable (URL) async throws -> Data

/// Ready-made ``FeedLoader``s.
public enum FeedLoaders {
    /// The real loader: `http`/`https` through one ``HTTPDataLoader`` (status checked, documents of up to
    /// 20 MB, cancellation honoured), `file` URLs read on ``WorkerThreadPool/io`` (never on Swift's cooperative
    /// pool).
    ///
    /// - Parameter timeout: how long the server may send nothing before the fetch fails, in seconds (whole
    ///   seconds, at least 1; see ``HTTPDataLoader/Configuration/stallTimeout``); 15 by default.
    public static func live(timeout: TimeInterval = 15) -> FeedLoader {
        var configuration = HTTPDataLoader.Configuration()
        configuration.requiresImageContent = false
        configuration.maxResponseBytes = 20_000_000
        configuration.stallTimeout = .milliseconds(Int(max(1, timeout) * 1000))
        let loader = HTTPDataLoader(configuration: configuration)
        return { url in
            try Task.checkCancellation()
            switch url.scheme?.lowercased() {
            case "file":
                return try await readFile(url)
            case "http", "https":
                return try await fetch(url, loader: loader)
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

    private static func fetch(_ url: URL, loader: HTTPDataLoader) async throws -> Data {
        do {
            let data = try await loader.loadData(for: DataRequest(url: url)).data
            try Task.checkCancellation()
            return data
        } catch let error as PinholeError where error.code == .httpStatus {
            let status = error.httpStatusCode ?? 0
            throw FeedError(.httpStatus, "\(url.absoluteString) answered HTTP \(status)", statusCode: status)
        } catch let error as PinholeError {
            try Task.checkCancellation()
            throw FeedError(.offline, "cannot reach \(url.host ?? url.absoluteString): \(error.message)")
        }
    }
}
