public import Pinhole

extension FeedScreenModel {
    /// The options of the gallery's image requests: ``ImageRequest/Options/animated`` while ``playsAnimations``.
    var imageOptions: ImageRequest.Options { playsAnimations ? [.animated] : [] }

    /// The drawn picture of `key`: frame 0's in ``pictureCache``, later frames' in ``framePictures``.
    func picture(for key: PictureCache.Key) -> TerminalPicture? {
        key.frame == 0 ? pictureCache[key] : framePictures[key]
    }

    /// The key of the picture to show for a box whose frame-0 key is `base` and whose animation frame `frame` was
    /// drawn last: that frame's while it is kept, else the first frame's.
    func shownKey(_ base: PictureCache.Key, frame: Int) -> PictureCache.Key {
        guard frame != 0 else { return base }
        let key = base.frame(frame)
        return framePictures[key] != nil ? key : base
    }

    /// The slot of the box `base` shows a new animation frame (``ImageSlot/frameIndex``, past 0): returns it when
    /// its picture is drawn already; else starts drawing it and returns `nil`, unless a frame of the same box is
    /// being drawn (then nothing: when that one is done, the frame due then is drawn, so a renderer that cannot
    /// keep up skips frames instead of queueing them).
    func frameToShow(_ slot: ImageSlot, base: PictureCache.Key) -> Int? {
        guard let frame = slot.frameIndex, frame != 0, let image = slot.image else { return nil }
        let key = base.frame(frame)
        if framePictures[key] != nil { return frame }
        let drawing = pendingConversions.contains { $0.frame != 0 && $0.frame(0) == base }
        if !drawing { draw(image, key: key) }
        return nil
    }

    /// A frame's picture was drawn: the boxes still animating that request show it, and those whose slot moved on
    /// meanwhile start drawing the frame due now.
    func frameDrawingFinished(_ key: PictureCache.Key) {
        let base = key.frame(0)
        var changed = false
        for (index, binding) in bindings {
            guard case .success = binding.slot.phase, binding.slot.frameIndex != nil,
                let request = binding.slot.request,
                thumbnailKey(request) == base
            else { continue }
            if framePictures[key] != nil {
                bindings[index]?.drawnFrame = key.frame
                changed = true
            }
            if binding.slot.frameIndex != key.frame, let ready = frameToShow(binding.slot, base: base) {
                bindings[index]?.drawnFrame = ready
            }
        }
        if let fullView, case .success = fullView.slot.phase, fullView.slot.frameIndex != nil,
            let request = fullView.slot.request, fullViewKey(request) == base
        {
            if framePictures[key] != nil {
                self.fullView?.drawnFrame = key.frame
                changed = true
            }
            if fullView.slot.frameIndex != key.frame, let ready = frameToShow(fullView.slot, base: base) {
                self.fullView?.drawnFrame = ready
            }
        }
        if changed { invalidate() }
    }

    /// What the animations did so far: the ticker's figures.
    public var animationMetrics: AnimationTicker.Metrics { animationTicker.metrics }
}
