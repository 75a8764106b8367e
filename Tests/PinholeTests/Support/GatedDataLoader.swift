import Foundation
import Pinhole
import Synchronization

/// A data loader whose loads wait until the test releases them: lets tests observe queueing, coalescing and
/// cancellation without real I/O. Every call and every cancellation is recorded.
final class GatedDataLoader: DataLoading {
    private struct State {
        var waiting: [(url: URL, id: UInt64, continuation: CheckedContinuation<DataResponse, any Error>)] = []
        var calls: [URL] = []
        var cancelled: [URL] = []
        var nextID: UInt64 = 0
        var autoRelease = false
    }

    private let state = Locked(State())

    /// URLs in the order their loads started.
    var calls: [URL] { state.withLock { $0.calls } }
    /// URLs whose loads were cancelled.
    var cancelled: [URL] { state.withLock { $0.cancelled } }
    /// Loads waiting now.
    var waitingURLs: [URL] { state.withLock { $0.waiting.map(\.url) } }

    /// From now on, answer every load at once with a valid fake image body.
    func releaseAutomatically() {
        let waiting = state.withLock { state in
            state.autoRelease = true
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for entry in waiting { entry.continuation.resume(returning: FakeImage.response(for: entry.url)) }
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
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.autoRelease { return .success(FakeImage.response(for: request.url)) }
                    state.waiting.append((request.url, id, continuation))
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

    /// Answers the oldest waiting load of `url` with `result` (a fake image body by default).
    @discardableResult
    func release(_ url: URL, with result: Result<DataResponse, any Error>? = nil) -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<DataResponse, any Error>? in
            guard let index = state.waiting.firstIndex(where: { $0.url == url }) else { return nil }
            return state.waiting.remove(at: index).continuation
        }
        continuation?.resume(with: result ?? .success(FakeImage.response(for: url)))
        return continuation != nil
    }
}
