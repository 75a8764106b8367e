import Foundation
import Pinhole
import PinholeShared
import Synchronization

/// A data loader whose loads wait until the test answers them: lets tests observe queueing, coalescing and
/// cancellation without real I/O. Every call and every cancellation is recorded.
///
/// An answer given before its load arrives is kept for it (``release(_:with:)``), so the order of "the load
/// arrives" and "the test answers" never matters. A waiting load ends with `CancellationError` as soon as its
/// task is cancelled; a test that fails early (a `#require` unwinding its `async let`s and task groups) or
/// hits its time limit thus leaves nothing waiting. ``close()`` ends every load, waiting or still to come.
final class GatedDataLoader: DataLoading {
    private struct Waiting {
        var url: URL
        var id: UInt64
        var continuation: CheckedContinuation<DataResponse, any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        /// Answers given before their load arrived, oldest first per URL.
        var kept: [URL: [Result<DataResponse, any Error>]] = [:]
        var calls: [URL] = []
        var cancelled: [URL] = []
        var nextID: UInt64 = 0
        var autoRelease = false
        var closed = false
    }

    private let state = Locked(State())

    /// URLs in the order their loads started.
    var calls: [URL] { state.withLock { $0.calls } }
    /// URLs whose loads were cancelled while waiting.
    var cancelled: [URL] { state.withLock { $0.cancelled } }
    /// Loads waiting now.
    var waitingURLs: [URL] { state.withLock { $0.waiting.map(\.url) } }

    /// From now on, answer every load at once with a valid fake image body (``FakeImage``); loads waiting now
    /// get theirs too.
    func releaseAutomatically() {
        let waiting = state.withLock { state in
            state.autoRelease = true
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for entry in waiting { entry.continuation.resume(returning: FakeImage.response(for: entry.url)) }
    }

    /// Ends every waiting load with `CancellationError`, and every later one at once: for the end of a test
    /// that leaves loads behind on purpose (a queue it did not drain).
    func close() {
        let waiting = state.withLock { state in
            state.closed = true
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for entry in waiting { entry.continuation.resume(throwing: CancellationError()) }
    }

    func loadData(for request: DataRequest) async throws -> DataResponse {
        let id: UInt64 = state.withLock { state in
            state.calls.append(request.url)
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let immediate: Result<DataResponse, any Error>? = state.withLock { state in
                    if Task.isCancelled || state.closed { return .failure(CancellationError()) }
                    if var kept = state.kept[request.url], !kept.isEmpty {
                        let answer = kept.removeFirst()
                        state.kept[request.url] = kept.isEmpty ? nil : kept
                        return answer
                    }
                    if state.autoRelease { return .success(FakeImage.response(for: request.url)) }
                    state.waiting.append(Waiting(url: request.url, id: id, continuation: continuation))
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<DataResponse, any Error>? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                state.cancelled.append(request.url)
                return state.waiting.remove(at: index).continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Answers the oldest waiting load of `url` with `result` (a fake image body by default); with no load of
    /// `url` waiting, keeps the answer for the next one that arrives.
    ///
    /// - Returns: `true` when a waiting load got the answer, `false` when it was kept.
    @discardableResult
    func release(_ url: URL, with result: Result<DataResponse, any Error>? = nil) -> Bool {
        let answer = result ?? .success(FakeImage.response(for: url))
        let continuation = state.withLock { state -> CheckedContinuation<DataResponse, any Error>? in
            guard let index = state.waiting.firstIndex(where: { $0.url == url }) else {
                state.kept[url, default: []].append(answer)
                return nil
            }
            return state.waiting.remove(at: index).continuation
        }
        continuation?.resume(with: answer)
        return continuation != nil
    }
}
