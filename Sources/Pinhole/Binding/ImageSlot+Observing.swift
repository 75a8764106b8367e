import PinholeShared

extension ImageSlot {
    /// What ``ImageSlot/disappear()`` does with a load still running.
    public enum DisappearBehavior: Sendable, Hashable {
        /// Cancel it (``ImageSlot/cancel()``): the download stops unless another caller wants it.
        case cancel
        /// Keep it, at this priority (`.veryLow` is usual), so that a row scrolled back into view finds it still
        /// running; ``ImageSlot/appear()`` gives it back the request's priority.
        case lowerPriority(to: ImageRequest.Priority)
    }

    /// The view went out of sight: cancels, or lowers the load's priority, as ``disappearBehavior`` says.
    /// An animation stops either way (``appear()`` plays it again from its first frame).
    public func disappear() {
        switch disappearBehavior {
        case .cancel: cancel()
        case .lowerPriority(let priority):
            imageTask?.priority = priority
            stopAnimating()
        }
    }

    /// The view is in sight again: a load whose priority ``disappear()`` lowered gets the request's priority
    /// back; a slot whose load was cancelled before it finished loads its request again.
    public func appear() {
        guard let request else { return }
        startAnimating()
        if let imageTask {
            imageTask.priority = request.priority
        } else if case .empty = phase {
            load(request)
        }
    }

    /// The slot's phase now and every change after it, as an asynchronous sequence. Each access makes a new
    /// sequence, so any number of observers each see every change; a sequence ends when its task is cancelled
    /// (or the loop is left).
    public var phases: AsyncStream<Phase> {
        let (stream, continuation) = AsyncStream<Phase>.makeStream()
        let id = UniqueID.next()
        observers[id] = continuation
        continuation.yield(phase)
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.observers[id] = nil }
        }
        return stream
    }

    /// The result of the slot's current load: waits while ``phase`` is `.loading` (following the slot if it is
    /// bound to another request meanwhile).
    ///
    /// - Returns: the response at once when ``phase`` is `.success`.
    /// - Throws: the failure's error; `CancellationError` when the slot is or becomes empty (no request, or
    ///   ``cancel()``), or when the waiting task is cancelled.
    public var response: ImageResponse {
        get async throws {
            for await phase in phases {
                switch phase {
                case .success(let response): return response
                case .failure(let error): throw error
                case .empty: throw CancellationError()
                case .loading: continue
                }
            }
            throw CancellationError()
        }
    }

    /// Copies a progress or preview event of the slot's load into the slot while the load still belongs to
    /// `generation`.
    func follow(_ event: ImageTask.Event, generation: UInt64) {
        guard generation == self.generation else { return }
        switch event {
        case .progress(let progress): self.progress = progress
        case .preview(let preview): if phase.isLoading { self.preview = preview }
        case .finished: break
        }
    }
}
