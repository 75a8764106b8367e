import Synchronization

/// A handle on one image load: await its ``response``, change its ``priority`` while it runs, or ``cancel()``.
///
/// The load starts when the task is made (``ImagePipeline/imageTask(for:)``). Changing the priority re-orders
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

    init(pipeline: ImagePipeline, request: ImageRequest) {
        self.pipeline = pipeline
        self.request = request
        self.currentPriority = Locked(request.priority)
        // Registered before the load starts, so that no byte of the download goes unreported.
        pipeline.loadObservers.add(self)
        // The closure holds the handle until the load ends: the priority is read from it under the lock.
        let task = Task { [self] in
            defer { pipeline.loadObservers.remove(self) }
            do {
                let response = try await pipeline.image(for: request, subscriber: subscriber, priority: { self.priority })
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
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { task.withLock { $0?.isCancelled ?? true } }
}
