import Foundation
import Pinhole
import PinholeShared

/// One HTTP transfer as its caller sees it: what to fetch, and the single resumption of the caller.
///
/// Two parties may end a transfer: the loader's thread (the response or a failure) and the caller's
/// cancellation handler. The first to call ``finish(_:)`` wins; later calls do nothing. The libcurl side of the
/// transfer (``CurlTransfer``) lives on the loader's thread only.
final class HTTPTransfer: Sendable {
    private struct State {
        var continuation: CheckedContinuation<DataResponse, any Error>?
        var finished = false
    }

    /// The caller's request (its URL, validators, per-request options and callbacks).
    let request: DataRequest
    /// The request and the loader's configuration, resolved into what libcurl is told.
    let options: HTTPTransferOptions
    private let state = Locked(State())

    init(request: DataRequest, options: HTTPTransferOptions) {
        self.request = request
        self.options = options
    }

    /// Stores the caller's continuation; returns `false` (and resumes it with `CancellationError`) when the
    /// transfer already ended or the calling task is already cancelled, so it must not start.
    func begin(_ continuation: CheckedContinuation<DataResponse, any Error>) -> Bool {
        let refused = state.withLock { state -> Bool in
            if state.finished || Task.isCancelled {
                state.finished = true
                return true
            }
            state.continuation = continuation
            return false
        }
        if refused { continuation.resume(throwing: CancellationError()) }
        return !refused
    }

    /// Ends the transfer with `result` unless it already ended, resuming the caller if it is waiting.
    ///
    /// - Returns: `true` when this call ended the transfer.
    @discardableResult
    func finish(_ result: Result<DataResponse, any Error>) -> Bool {
        let (ended, continuation) = state.withLock { state in
            if state.finished { return (false, nil as CheckedContinuation<DataResponse, any Error>?) }
            state.finished = true
            defer { state.continuation = nil }
            return (true, state.continuation)
        }
        continuation?.resume(with: result)
        return ended
    }

    /// Whether the transfer has ended (answered, failed or cancelled).
    var isFinished: Bool { state.withLock { $0.finished } }
}
