import Foundation
import Pinhole
import PinholeShared

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

    private struct State {
        var outcomes: [String: Outcome] = [:]
        var restartsAfterCancel = 0
        var duplicates = 0
    }

    private let state = Locked(State())

    /// A download of `url` began (a later one for the same URL replaces the record). A start while another
    /// download of the same URL runs is a duplicate; a start after an earlier one ended is a restart: after a
    /// cancel (a row that came back), or after a download that finished while its image job was cancelled (the
    /// bench keeps no disk cache, so the bytes are gone).
    func started(_ url: String) {
        state.withLock { state in
            switch state.outcomes[url] {
            case .started?: state.duplicates += 1
            case .cancelled?, .completed?, .failed?: state.restartsAfterCancel += 1
            default: break
            }
            state.outcomes[url] = .started
        }
    }

    /// Downloads started for a URL whose previous download was cancelled (a row that came back).
    var restartsAfterCancel: Int { state.withLock { $0.restartsAfterCancel } }

    /// Downloads started for a URL while another download of it was still running.
    var duplicates: Int { state.withLock { $0.duplicates } }

    /// A download of `url` ended.
    func finished(_ url: String, _ outcome: Outcome) {
        state.withLock { $0.outcomes[url] = outcome }
    }

    /// The state of `url`'s download, or `nil` when none began (a request cancelled while queued).
    func outcome(of url: String) -> Outcome? {
        state.withLock { $0.outcomes[url] }
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
