import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One HTTP transfer's state: the bytes so far, the limits, and the single resumption of its caller.
///
/// Callbacks come from URLSession's delegate queue, the watchdog timer and the caller's cancellation
/// handler; the first of them to ``finish(_:)`` wins, later ones are ignored.
final class URLSessionTransfer: Sendable {
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
        /// Where a redirect decision stands; the task must not be cancelled while one is open (see ``RedirectPhase``).
        var redirect = RedirectPhase.none
        /// A cancel asked for while a redirect decision was open; done at the next URLSession callback.
        var cancelPending = false
    }

    /// FoundationNetworking on Linux traps ("Received callback for HTTP redirection, but we're not waiting for
    /// it") when a task is cancelled between asking its delegate about a redirect and processing the answer.
    /// So a cancel asked for in that window waits until URLSession's next callback (the response head or the
    /// completion), and a redirect question that arrives after the task was cancelled is never answered.
    enum RedirectPhase {
        /// No redirect decision open.
        case none
        /// The delegate is deciding, or has answered and URLSession has not yet acted on the answer.
        case open
    }

    private let url: URL
    private let configuration: URLSessionDataLoader.Configuration
    private let started: ContinuousClock.Instant
    private let state: Locked<State>
    /// Where the URLSession task is cancelled (the loader's serial watchdog queue).
    private let controlQueue: DispatchQueue

    init(url: URL, configuration: URLSessionDataLoader.Configuration, controlQueue: DispatchQueue) {
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
    func finish(_ result: Result<DataResponse, any Error>) {
        let wantsCancel: Bool
        if case .failure = result { wantsCancel = true } else { wantsCancel = false }
        let (continuation, task, timer) = state.withLock { state in
            if state.finished { return (nil as CheckedContinuation<DataResponse, any Error>?, nil as URLSessionDataTask?, nil as RepeatingTimer?) }
            state.finished = true
            defer { state.continuation = nil; state.timer = nil; state.data = Data() }
            var task: URLSessionDataTask? = nil
            if wantsCancel {
                if state.redirect == .open { state.cancelPending = true } else { task = state.task }
            }
            return (state.continuation, task, state.timer)
        }
        timer?.cancel()
        if let task { cancelOffThread(task) }
        continuation?.resume(with: result)
    }

    /// Not on the calling thread: swift-corelibs-foundation's URLSessionTask.cancel() does a `sync` onto the
    /// session's work queue, and the caller may be the main actor (ImageSlot.cancel() on disappear). In
    /// `pinhole bench scroll` that blocked the main actor for up to 457 ms under load.
    /// The loader's watchdog queue: a serial queue that already has a thread, so cancels add none.
    private func cancelOffThread(_ task: URLSessionDataTask) {
        controlQueue.async { task.cancel() }
    }

    /// URLSession called back after a redirect decision: the decision has been acted on, so a cancel that waited
    /// for it can go now.
    private func closeRedirectDecision() {
        let task: URLSessionDataTask? = state.withLock { state in
            guard state.redirect == .open else { return nil }
            state.redirect = .none
            guard state.cancelPending else { return nil }
            state.cancelPending = false
            return state.task
        }
        if let task { cancelOffThread(task) }
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
        closeRedirectDecision()
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

    /// What the delegate should answer URLSession's redirect question.
    enum RedirectAnswer {
        /// Follow the redirect.
        case follow
        /// Refuse it (the transfer has failed); URLSession then delivers the 3xx response, and the task is
        /// cancelled at that callback.
        case refuse
        /// The transfer was already cancelled: do not answer (answering a cancelled task traps).
        case ignore
    }

    /// Decides on a redirect to `target`, opening the redirect window (see ``RedirectPhase``).
    func answerRedirect(to target: URL) -> RedirectAnswer {
        let decision: (RedirectAnswer, PinholeError?) = state.withLock { state in
            if state.finished { return (.ignore, nil) }
            state.redirect = .open
            let loop = state.visited.contains(target)
            state.visited.append(target)
            state.lastProgress = .now
            if loop {
                return (.refuse, PinholeError(.tooManyRedirects, "redirect loop: \(state.visited.map(\.absoluteString).joined(separator: " → "))"))
            }
            if state.visited.count - 1 > configuration.maxRedirects {
                return (.refuse, PinholeError(.tooManyRedirects, "more than \(configuration.maxRedirects) redirects from \(url.absoluteString)"))
            }
            return (.follow, nil)
        }
        switch decision {
        case (.refuse, let error?):
            finish(.failure(error))
            return .refuse
        case (.follow, _):
            do {
                try configuration.redirectPolicy?(target)
                return .follow
            } catch {
                finish(.failure(error))
                return .refuse
            }
        default:
            return decision.0
        }
    }

    func didComplete(error: (any Error)?) {
        closeRedirectDecision()
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
