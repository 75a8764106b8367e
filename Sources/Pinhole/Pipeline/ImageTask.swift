import PinholeShared
import Synchronization

/// A handle on one image load: await its ``response``, change its ``priority`` while it runs, or ``cancel()``.
///
/// The load starts when the task is made (``ImagePipeline/imageTask(for:)``): a job already running for the
/// request is joined before that call returns, so another caller that leaves the job right after (a prefetch
/// being stopped) does not cancel it. Changing the priority re-orders
/// the job's queued work (download and decode) when this caller is the one that sets the job's highest
/// priority. Cancelling makes ``response`` throw `CancellationError` at once; the shared job stops only when
/// its last caller has gone. Follow ``progress`` and ``events`` (bytes received, progressive previews, the end).
///
/// Thread-safe; use it from any isolation.
public final class ImageTask: Sendable {
    public typealias Priority = ImageRequest.Priority

    /// The request this task loads.
    public let request: ImageRequest
    private let pipeline: ImagePipeline
    private let subscriber = UniqueID.next()
    private let currentPriority: Locked<Priority>
    private let task: Locked<Task<ImageResponse, any Error>?> = Locked(nil)
    /// Progress, previews and the event observers (ImageTask+Events.swift).
    let eventState = Locked(EventState())

    /// The image job joined when the task was made, if one was running then.
    private let joined: CoalescingRegistry<ImageJobKey, LoadedImage>.Subscription?
    /// The task's metrics under way; `nil` unless the pipeline collects them.
    private let metricsCollector: TaskMetricsCollector?

    init(pipeline: ImagePipeline, request: ImageRequest) {
        self.pipeline = pipeline
        self.request = request
        let currentPriority = Locked(request.priority)
        self.currentPriority = currentPriority
        let metricsCollector = pipeline.configuration.collectsTaskMetrics ? TaskMetricsCollector() : nil
        self.metricsCollector = metricsCollector
        // A job already running for the request is joined here, before the caller gets the task: a caller that
        // leaves that job in the same turn (a prefetch the caller stops for the row it now binds) then does not
        // cancel it and its download. The checks and caches still come first in the load below, which leaves the
        // job if one of them ends it. No job is started here: nothing has checked the request yet.
        let requestIsValid = (try? pipeline.validate(request)) != nil
        let priority: @Sendable () -> Priority = { currentPriority.withLock { $0 } }
        self.joined =
            requestIsValid
            ? pipeline.imageJobs.join(request.imageJobKey, subscriber: subscriber, priority: priority) : nil
        // Registered before the load starts, so that no byte of the download goes unreported.
        pipeline.loadObservers.add(self)
        // The closure holds the handle until the load ends: the priority is read from it under the lock.
        let task = Task { [self, joined] in
            defer { pipeline.loadObservers.remove(self) }
            do {
                let response = try await pipeline.image(
                    for: request, subscriber: subscriber, priority: { self.priority }, joined: joined,
                    metrics: metricsCollector)
                finish(.success(response))
                return response
            } catch {
                finish(.failure(error))
                throw error
            }
        }
        self.task.withLock { $0 = task }
    }

    /// The caller's priority; setting it re-orders queued work at once.
    public var priority: Priority {
        get { currentPriority.withLock { $0 } }
        set {
            currentPriority.withLock { $0 = newValue }
            // The registry reads the priority again under its own lock: of two quick changes, the later one wins.
            pipeline.imageJobs.updatePriority(request.imageJobKey, subscriber: subscriber, from: { self.priority })
        }
    }

    /// The result.
    /// - Throws: `CancellationError` after ``cancel()``; ``PinholeError`` for failures.
    public var response: ImageResponse {
        get async throws {
            guard let task = task.withLock({ $0 }) else { throw CancellationError() }
            return try await task.value
        }
    }

    /// The image of ``response``.
    public var image: PixelImage {
        get async throws { try await response.image }
    }

    /// Stops waiting; the shared job is cancelled when no other caller waits for it.
    public func cancel() {
        task.withLock { $0 }?.cancel()
        // At once, not when the task next runs: the job joined at creation must not outlive a cancel in the same turn.
        if let joined { pipeline.imageJobs.leave(joined) }
    }

    /// Where the task's time went, once it has finished (answered, failed or cancelled); `nil` before that, and
    /// unless the pipeline collects task metrics (``ImagePipeline/Configuration/collectsTaskMetrics``). After a
    /// success it is the response's ``ImageResponse/metrics``; after a failure its ``ImageTaskMetrics/source`` is
    /// `nil` and it has the stages that ran.
    public var metrics: ImageTaskMetrics? { metricsCollector?.record }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { task.withLock { $0?.isCancelled ?? true } }
}
