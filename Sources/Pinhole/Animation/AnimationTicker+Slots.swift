extension AnimationTicker {
    /// Starts playing `animation` in `slot` (its frame 0 is on screen), for the slot's current generation.
    func play(_ animation: AnimatedImage, in slot: ImageSlot) {
        let id = ObjectIdentifier(slot)
        remove(id)
        entries[id] = Entry(slot: slot, animation: animation, generation: slot.generation)
        needsTick = true
        wakeLoop()
    }

    /// Stops `slot`'s animation, if any: its frame request is cancelled (the decode stops unless another caller
    /// waits for it), and nothing more is shown in it.
    func stopPlaying(in slot: ImageSlot) {
        remove(ObjectIdentifier(slot))
    }

    /// Whether `slot` animates here.
    func isPlaying(in slot: ImageSlot) -> Bool { entries[ObjectIdentifier(slot)] != nil }

    func remove(_ id: ObjectIdentifier) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        entry.request?.cancel()
    }

    /// Asks for frame `index` off the main actor; when it comes, the slot ticks again at once.
    func request(
        _ index: Int, of animation: AnimatedImage, for id: ObjectIdentifier, generation: UInt64
    ) -> Task<Void, Never> {
        Task { [weak self] in
            let failed: Bool
            do {
                _ = try await animation.frame(at: index)
                failed = false
            } catch {
                failed = !(error is CancellationError)
            }
            self?.frameArrived(for: id, generation: generation, failed: failed)
        }
    }

    /// A frame request of the slot `id` ended. A request of a slot that stopped or moved on is ignored; a failed
    /// one stops the slot (its frame stays: asking again would decode the same failure every tick).
    private func frameArrived(for id: ObjectIdentifier, generation: UInt64, failed: Bool) {
        guard var entry = entries[id], entry.generation == generation else { return }
        if failed { return remove(id) }
        entry.request = nil
        entry.requestedIndex = nil
        entries[id] = entry
        needsTick = true
        wakeLoop()
    }
}
