import Foundation
import PinholeTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The built `pinhole serve` as a child process (``ServeCommandEndToEndTests/start(_:)``) and a URLSession to
/// ask it. Requests are never cancelled (cancelling a URLSession request can block a cooperative thread on
/// Linux): a killed server ends them.
final class ServeChild: Sendable {
    let process: SpawnedProcess
    let port: Int
    let session: URLSession

    /// Starts `pinhole serve --listen 127.0.0.1:0 arguments…` and returns once it listens.
    init(_ arguments: [String]) async throws {
        (process, port) = try await ServeCommandEndToEndTests.start(arguments)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = 120
        configuration.httpMaximumConnectionsPerHost = 32
        session = URLSession(configuration: configuration)
    }

    /// GETs `path` (`/_/w:100/plain/…` or `/health`).
    func get(_ path: String) async throws -> ServerHarness.Answer {
        let (body, response) = try await session.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        return ServerHarness.Answer(status: (response as? HTTPURLResponse)?.statusCode ?? -1, headers: [:], body: body)
    }

    /// Ends the session once its requests are done; the process is killed when the value goes.
    func close() { session.finishTasksAndInvalidate() }
}
