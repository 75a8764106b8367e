import Foundation
import Pinhole

/// What happened to each URL's download, as the client saw it: started, then completed, cancelled or failed.
///
/// The naive strategy records from its GCD blocks, the pinhole strategy through ``TrackingDataLoader``.
/// Thread-safe (a `Locked` dictionary).
final class DownloadLog: Sendable {
    /// The last known state of a URL's download.
    enum Outcome: Sendable, Equatable {
        case started
        case completed
        case cancelled
        case failed
    }

    private let outcomes = Locked<[String: Outcome]>([:])

    /// A download of `url` began (a later one for the same URL replaces the record).
    func started(_ url: String) {
        outcomes.withLock { $0[url] = .started }
    }

    /// A download of `url` ended.
    func finished(_ url: String, _ outcome: Outcome) {
        outcomes.withLock { $0[url] = outcome }
    }

    /// The state of `url`'s download, or `nil` when none began (a request cancelled while queued).
    func outcome(of url: String) -> Outcome? {
        outcomes.withLock { $0[url] }
    }
}

/// A ``DataLoading`` that records every download's outcome in a ``DownloadLog`` and passes it through.
struct TrackingDataLoader: DataLoading {
    let base: any DataLoading
    let log: DownloadLog

    func loadData(for request: DataRequest) async throws -> DataResponse {
        let url = request.url.absoluteString
        log.started(url)
        do {
            let response = try await base.loadData(for: request)
            log.finished(url, .completed)
            return response
        } catch is CancellationError {
            log.finished(url, .cancelled)
            throw CancellationError()
        } catch {
            log.finished(url, .failed)
            throw error
        }
    }
}
