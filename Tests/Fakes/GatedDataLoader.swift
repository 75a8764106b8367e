public import Foundation
public import Pinhole
import PinholeShared

/// The test suites' one fake data loader: its loads wait until the test answers them, so tests observe queueing,
/// coalescing and cancellation without real I/O. Every call and every cancellation is recorded.
///
/// An answer given before its load arrives is kept for it (``release(_:with:)``), so the order of "the load
/// arrives" and "the test answers" never matters. A waiting load ends with `CancellationError` as soon as its
/// task is cancelled; a test that fails early (a `#require` unwinding its `async let`s and task groups) or
/// hits its time limit thus leaves nothing waiting. ``close()`` ends every load, waiting or still to come.
///
/// A loader that answers at once (canned answers, or a fake image for every URL) is the same loader with a
/// responder: ``answerAutomatically(with:)``, ``releaseAutomatically()``, or ``init(answering:)``. Thread-safe;
/// every member may be used from any isolation.
public final class GatedDataLoader: DataLoading {
    /// Answers a load of a URL at once (`nil`: the load waits for ``GatedDataLoader/release(_:with:)``).
    public typealias Responder = @Sendable (URL) -> Result<DataResponse, any Error>?

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
        var responder: Responder?
        var closed = false
    }

    private let state = Locked(State())

    /// A loader whose loads all wait for the test.
    public init() {}

    /// A loader that answers every load with `responder`'s answer at once; URLs it gives `nil` for wait.
    public convenience init(answering responder: @escaping Responder) {
        self.init()
        answerAutomatically(with: responder)
    }

    /// URLs in the order their loads started.
    public var calls: [URL] { state.withLock { $0.calls } }
    /// URLs whose loads were cancelled while waiting.
    public var cancelled: [URL] { state.withLock { $0.cancelled } }
    /// Loads waiting now.
    public var waitingURLs: [URL] { state.withLock { $0.waiting.map(\.url) } }

    /// How many loads of a URL with this path have started.
    public func loads(ofPath path: String) -> Int { state.withLock { $0.calls.filter { $0.path == path }.count } }

    /// From now on, answer every load at once with a valid fake image body (``FakeImage``); loads waiting now
    /// get theirs too.
    public func releaseAutomatically() {
        answerAutomatically { .success(FakeImage.response(for: $0)) }
    }

    /// From now on, answer every load with `responder`'s answer at once, and the loads waiting now that it
    /// answers; a URL it gives `nil` for waits for ``release(_:with:)``. Replaces an earlier responder. An
    /// answer kept by ``release(_:with:)`` still goes first.
    public func answerAutomatically(with responder: @escaping Responder) {
        let answered = state.withLock { state -> [(Waiting, Result<DataResponse, any Error>)] in
            state.responder = responder
            var answered: [(Waiting, Result<DataResponse, any Error>)] = []
            state.waiting.removeAll { entry in
                guard let answer = responder(entry.url) else { return false }
                answered.append((entry, answer))
                return true
            }
            return answered
        }
        for (entry, answer) in answered { entry.continuation.resume(with: answer) }
    }

    /// Ends every waiting load with `CancellationError`, and every later one at once: for the end of a test
    /// that leaves loads behind on purpose (a queue it did not drain).
    public func close() {
        let waiting = state.withLock { state in
            state.closed = true
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for entry in waiting { entry.continuation.resume(throwing: CancellationError()) }
    }

    /// Records the call, then answers with a kept answer, the responder's, or waits for the test.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it waits, or the loader is closed;
    ///   else whatever error the test answers with.
    public func loadData(for request: DataRequest) async throws -> DataResponse {
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
                    if let answer = state.responder?(request.url) { return answer }
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
    public func release(_ url: URL, with result: Result<DataResponse, any Error>? = nil) -> Bool {
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
