extension ImageSlot {
    /// Plays the shown response's animation on ``animationTicker``, when there are both and it does not play yet.
    func startAnimating() {
        guard let animationTicker, let animation = phase.response?.animation,
            !animationTicker.isPlaying(in: self)
        else { return }
        animatedFrame = nil
        frameIndex = 0
        animationTicker.play(animation, in: self)
    }

    /// Stops the animation, if one plays: the first frame (the response's image) shows again.
    func stopAnimating() {
        animationTicker?.stopPlaying(in: self)
        guard frameIndex != nil else { return }
        let changed = animatedFrame != nil
        frameIndex = nil
        animatedFrame = nil
        if changed { notifyObservers() }
    }

    /// Shows frame `index` of the animation (the ticker checked that it belongs to the slot's current request).
    func show(frame: PixelImage, index: Int) {
        frameIndex = index
        animatedFrame = index == 0 ? nil : frame
        notifyObservers()
    }
}
