import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One HTTP transfer's state: the bytes so far, the limits, and the single resumption of its caller.
///
/// Callbacks come from URLSession's delegate queue, the watchdog timer and the caller's cancellation
/// handler; the first of them to ``finish(_:)`` wins, later ones are ignored.
final class HTTPTransfer: Sendable {
    private struct State {
        var continuation: CheckedContinuation<DataResponse, any Error>?
        var finished = false
        var task: URLSessionDataTask?
        var response: HTTPURLResponse?
        var data = Data()
        var sniffed = false
        var lastProgress: ContinuousClock.Instant
        var visited: [URL]
        var timer: RepeatingTimer?
    }

    private let url: URL
    private let configuration: HTTPDataLoader.Configuration
    private let started: ContinuousClock.Instant
    private let state: Locked<State>
    /// Where the URLSession task is cancelled (the loader's serial watchdog queue).
    private let controlQueue: DispatchQueue

    init(url: URL, configuration: HTTPDataLoader.Configuration, controlQueue: DispatchQueue) {
        self.url = url
        self.controlQueue = controlQueue
        self.configuration = configuration
        let now = ContinuousClock.now
        self.started = now
        self.state = Locked(State(lastProgress: now, visited: [url]))
    }

    var task: URLSessionDataTask? {
        get { state.withLock { $0.task } }
        set { state.withLock { $0.task = newValue } }
    }

    /// Stores the caller's continuation; returns `false` (and resumes it) if the transfer already ended.
    func begin(_ continuation: CheckedContinuation<DataResponse, any Error>) -> Bool {
        let alreadyCancelled = state.withLock { state -> Bool in
            if state.finished || Task.isCancelled {
                state.finished = true
                return true
            }
            state.continuation = continuation
            return false
        }
        if alreadyCancelled { continuation.resume(throwing: CancellationError()) }
        return !alreadyCancelled
    }

    /// Ends the transfer with `result` unless it already ended: resumes the caller, stops the watchdog and
    /// cancels the URLSession task if it still runs.
    func finish(_ result: Result<DataResponse, any Error>, cancellingTask: Bool = true) {
        let (continuation, task, timer) = state.withLock { state in
            if state.finished { return (nil as CheckedContinuation<DataResponse, any Error>?, nil as URLSessionDataTask?, nil as RepeatingTimer?) }
            state.finished = true
            defer { state.continuation = nil; state.timer = nil; state.data = Data() }
            return (state.continuation, state.task, state.timer)
        }
        timer?.cancel()
        if case .failure = result, cancellingTask, let task {
            // Not on the calling thread: swift-corelibs-foundation's URLSessionTask.cancel() does a `sync` onto the
            // session's work queue, and the caller may be the main actor (ImageSlot.cancel() on disappear). In
            // `pinhole bench scroll` that blocked the main actor for up to 457 ms under load.
            // The loader's watchdog queue: a serial queue that already has a thread, so cancels add none.
            controlQueue.async { task.cancel() }
        }
        continuation?.resume(with: result)
    }

    private func fail(_ error: PinholeError) { finish(.failure(error)) }

    func startWatchdog(on queue: DispatchQueue) {
        let shortest = min(configuration.stallTimeout, configuration.deadline)
        let interval = max(Duration.milliseconds(10), min(Duration.milliseconds(250), shortest / 10))
        let timer = RepeatingTimer(interval: interval, queue: queue, leeway: .milliseconds(5)) { [weak self] in
            self?.checkTimeouts()
        }
        let keep = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.timer = timer
            return true
        }
        if keep { timer.start() }
    }

    private func checkTimeouts() {
        let now = ContinuousClock.now
        let lastProgress = state.withLock { $0.lastProgress }
        if now - started > configuration.deadline {
            fail(PinholeError(.timeout, "\(url.absoluteString): no complete response within \(configuration.deadline)"))
        } else if now - lastProgress > configuration.stallTimeout {
            fail(PinholeError(.timeout, "\(url.absoluteString): no data for \(configuration.stallTimeout) (stalled)"))
        }
    }

    // MARK: - URLSession callbacks

    /// The response head arrived; returns whether to receive the body.
    func didReceive(_ response: URLResponse) -> Bool {
        guard let http = response as? HTTPURLResponse else {
            fail(PinholeError(.networkFailure, "\(url.absoluteString): not an HTTP response"))
            return false
        }
        let status = http.statusCode
        if status != 304 && !(200...299).contains(status) {
            fail(PinholeError(.httpStatus, "HTTP \(status) for \(url.absoluteString)", httpStatusCode: status))
            return false
        }
        if http.expectedContentLength > Int64(configuration.maxResponseBytes) {
            fail(tooLarge(declared: Int(http.expectedContentLength)))
            return false
        }
        state.withLock {
            $0.response = http
            $0.lastProgress = .now
        }
        return true
    }

    func didReceive(_ chunk: Data) {
        let outcome: PinholeError? = state.withLock { state in
            guard !state.finished else { return nil }
            state.lastProgress = .now
            state.data.append(chunk)
            if state.data.count > configuration.maxResponseBytes { return tooLarge(declared: nil) }
            // Sniff once enough bytes are in: an HTML error page served as an image stops here.
            if configuration.requiresImageContent && !state.sniffed && state.data.count >= 64 {
                state.sniffed = true
                if case .notAnImage = ImageFormat.sniff(state.data) {
                    return PinholeError.forSniffed(ImageFormat.sniff(state.data))
                }
            }
            return nil
        }
        if let outcome { fail(outcome) }
    }

    /// Decides on a redirect. On refusal the transfer has failed but its task still runs: the delegate must
    /// answer URLSession's redirect callback first and then call ``cancelTask()`` (cancelling while URLSession
    /// waits for that answer traps in FoundationNetworking).
    func allowRedirect(to target: URL) -> Bool {
        let refusal: PinholeError? = state.withLock { state in
            let loop = state.visited.contains(target)
            state.visited.append(target)
            state.lastProgress = .now
            if loop {
                return PinholeError(.tooManyRedirects, "redirect loop: \(state.visited.map(\.absoluteString).joined(separator: " → "))")
            }
            if state.visited.count - 1 > configuration.maxRedirects {
                return PinholeError(.tooManyRedirects, "more than \(configuration.maxRedirects) redirects from \(url.absoluteString)")
            }
            return nil
        }
        if let refusal {
            finish(.failure(refusal), cancellingTask: false)
            return false
        }
        do {
            try configuration.redirectPolicy?(target)
        } catch {
            finish(.failure(error), cancellingTask: false)
            return false
        }
        return true
    }

    /// Cancels the URLSession task (after a refused redirect has been answered).
    func cancelTask() {
        task?.cancel()
    }

    func didComplete(error: (any Error)?) {
        if let error {
            finish(.failure(Self.map(error, url: url)))
            return
        }
        let response: DataResponse? = state.withLock { state in
            guard !state.finished, let http = state.response else { return nil }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String { headers[name.lowercased()] = "\(value)" }
            }
            return DataResponse(data: state.data, statusCode: http.statusCode, headers: headers, url: http.url ?? url)
        }
        if let response {
            finish(.success(response))
        } else {
            finish(.failure(PinholeError(.networkFailure, "\(url.absoluteString): ended without a response")))
        }
    }

    private func tooLarge(declared: Int?) -> PinholeError {
        let what = declared.map { "declares \($0) bytes" } ?? "sent more bytes"
        return PinholeError(.dataTooLarge, "\(url.absoluteString) \(what), over the \(configuration.maxResponseBytes)-byte limit")
    }

    /// URLSession's errors in Pinhole's terms; `URLError.cancelled` becomes `CancellationError`.
    static func map(_ error: any Error, url: URL) -> any Error {
        guard let urlError = error as? URLError else {
            return PinholeError(.networkFailure, "\(url.absoluteString): \(error)")
        }
        switch urlError.code {
        case .cancelled:
            return CancellationError()
        case .timedOut:
            return PinholeError(.timeout, "\(url.absoluteString): timed out", underlying: urlError)
        case .httpTooManyRedirects:
            return PinholeError(.tooManyRedirects, "too many redirects from \(url.absoluteString)", underlying: urlError)
        default:
            return PinholeError(.networkFailure, "\(url.absoluteString): \(urlError.localizedDescription) (URLError \(urlError.code.rawValue))", underlying: urlError)
        }
    }
}
