import Foundation
import Pinhole

/// The HTTP transport a benchmark loads through: libcurl (``HTTPDataLoader``) or, until it is deleted, the
/// URLSession loader it replaces, so both can be measured side by side in the same run.
///
/// `pinhole bench download` runs both; `bench scroll` and `bench pipeline` read `PINHOLE_BENCH_TRANSPORT`
/// (`libcurl`, the default, or `urlsession`).
public enum BenchTransport: String, Sendable, CaseIterable, Codable {
    case libcurl
    case urlsession

    /// `PINHOLE_BENCH_TRANSPORT`, else libcurl.
    public static var fromEnvironment: BenchTransport {
        ProcessInfo.processInfo.environment["PINHOLE_BENCH_TRANSPORT"].flatMap(BenchTransport.init) ?? .libcurl
    }

    /// A loader with the default limits and `maxConnectionsPerHost`.
    func makeLoader(maxConnectionsPerHost: Int = 6) -> any DataLoading {
        switch self {
        case .libcurl:
            var configuration = HTTPDataLoader.Configuration()
            configuration.maxConnectionsPerHost = maxConnectionsPerHost
            return HTTPDataLoader(configuration: configuration)
        case .urlsession:
            var configuration = URLSessionDataLoader.Configuration()
            configuration.maxConnectionsPerHost = maxConnectionsPerHost
            return URLSessionDataLoader(configuration: configuration)
        }
    }
}
