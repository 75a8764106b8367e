import CPinholeServer
import Foundation
import Pinhole
import PinholeVips
import Synchronization

/// The HTTP front of a ``ThumbnailService``: imgproxy-style processing URLs, signature checks, `Accept`
/// negotiation, conditional requests, `/health`, `/metrics`, one JSON access-log line per request, and draining.
///
/// Routes (`GET` and `HEAD`; anything else is 405):
/// - `/health`: 200 `{"status":"ok"}`, or 503 while draining;
/// - `/metrics`: Prometheus text (``ServerMetrics``);
/// - `/%signature/%options/…`: a thumbnail (``ProcessingURL``): 200 with `ETag`, `Last-Modified`,
///   `Cache-Control: public, max-age`, and `Vary: Accept` when the format was negotiated; 304 when
///   `If-None-Match` (or, without it, `If-Modified-Since`) matches; errors as JSON (``ErrorResponse``).
///
/// Thread-safe.
public final class ThumbnailServer: HTTPResponding {
    public let configuration: ServerConfiguration
    public let service: ThumbnailService
    let metrics = ServerMetrics()
    let log: @Sendable (String) -> Void
    let draining = Atomic<Bool>(false)
    let working = CountGate()
    /// Gives memory freed by a burst back to the system once no answer has been made for a second.
    let memoryTrimmer = IdleMemoryTrimmer { _ = MallocTuning.releaseFreeMemory() }

    /// - Parameter log: receives each access-log line (stdout in `pinhole serve`).
    public init(
        configuration: ServerConfiguration, service: ThumbnailService, log: @escaping @Sendable (String) -> Void
    ) {
        self.configuration = configuration
        self.service = service
        self.log = log
    }

    /// Whether the server is draining: new image requests get 503, `/health` says 503.
    public var isDraining: Bool { draining.load(ordering: .sequentiallyConsistent) }

    /// Requests whose answer is being made.
    public var workingCount: Int { working.count }

    // MARK: - HTTPResponding

    public func immediateResponse(to request: ServerRequest) -> ServerResponse? {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = ErrorResponse.make(
                status: 405, code: "method_not_allowed", message: "only GET and HEAD are served")
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        let path = request.path
        switch path {
        case "/health": return health()
        case "/metrics": return metricsResponse()
        default: break
        }
        if isDraining {
            var response = ErrorResponse.make(status: 503, code: "draining", message: "the server is stopping")
            response.headers += [("Retry-After", "1"), ("Connection", "close")]
            return response
        }
        let url: ProcessingURL
        do {
            url = try checkedURL(path)
        } catch {
            return ErrorResponse.make(error)
        }
        let accept = AcceptHeader(request.headers["accept"])
        guard let hit = service.cachedThumbnail(source: url.source, options: url.options, accept: accept) else {
            return nil
        }
        return answer(hit, for: request, negotiated: url.options.format == nil, servedFrom: "memory")
    }

    public func response(to request: ServerRequest) async -> ServerResponse {
        working.increment()
        defer {
            working.decrement()
            memoryTrimmer.workEnded { [working] in working.count == 0 }
        }
        do {
            let url = try checkedURL(request.path)
            let accept = AcceptHeader(request.headers["accept"])
            let (made, provenance) = try await service.answer(
                source: url.source, options: url.options, accept: accept)
            return answer(
                made, for: request, negotiated: url.options.format == nil, servedFrom: provenance.description)
        } catch let error as ProcessingURLError {
            return ErrorResponse.make(error)
        } catch {
            return ErrorResponse.make(error)
        }
    }

    public func completed(_ request: ServerRequest, response: ServerResponse?, completedNormally: Bool) {
        let seconds = Double((ContinuousClock.now - request.receivedAt) / .milliseconds(1)) / 1000
        let sent = completedNormally ? response : nil
        metrics.record(
            status: sent?.status, seconds: seconds, bytesSent: request.method == "HEAD" ? 0 : sent?.body.count ?? 0)
        log(AccessLog.line(request, response: sent, seconds: seconds))
    }

    // MARK: - Draining

    /// Starts draining: new image requests get 503 and `/health` 503; returns when no answer is being made, or
    /// after ``ServerConfiguration/drainTimeout``.
    public func drain() async {
        draining.store(true, ordering: .sequentiallyConsistent)
        let working = self.working
        let timeout = configuration.drainTimeout
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await working.waitUntilZero() }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }
}
