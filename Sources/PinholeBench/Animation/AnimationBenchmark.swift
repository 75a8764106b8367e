import Foundation
import Pinhole
import PinholeShared
import PinholeVips

/// `pinhole bench animation`: ``Configuration/animations`` animated sources of ``Configuration/frames`` frames
/// (``AnimationSources``: pans across real photos, GIF and WebP in turn) played together in list rows for
/// ``Configuration/seconds``, in this process.
///
/// - Pinhole: one ``ImagePipeline`` (libvips, its default frame budget), one ``ImageSlot`` a row bound to one
///   ``AnimationTicker``, ticked at 60 Hz on the main actor as a host's frame loop would. Measured over the play:
///   frames shown, skipped, decoded (per second), reused and evicted; the process CPU time; the frame
///   budget's peak; and the ticks' main-actor time.
/// - Reference, in the same run: the player that decodes every frame of every source up front and holds them
///   (what a view given all its frames at once does): its decode CPU time and the bytes it holds.
public struct AnimationBenchmark: Sendable {
    public struct Configuration: Sendable {
        /// The corpus directory whose JPEG photos the sources are made from.
        public var corpus: String
        public var animations = 12
        public var frames = 60
        /// How long each frame shows: 40 ms (25 frames a second).
        public var frameDuration: Duration = .milliseconds(40)
        /// How long the rows play.
        public var seconds = 10.0
        /// The rows' thumbnail size: the longest side, in pixels.
        public var size = 160
        /// The pipeline's frame budget in bytes; `nil`: its default
        /// (``ImagePipeline/Configuration/animationFrameBudget``).
        public var frameBudget: Int?

        public init(corpus: String) { self.corpus = corpus }
    }

    public var configuration: Configuration

    public init(configuration: Configuration) { self.configuration = configuration }

    /// Makes the sources, measures the reference, then plays; `progress` gets a line per step.
    public func run(progress: (String) -> Void = { _ in }) async throws -> AnimationBenchmarkResult {
        let sources = try await AnimationSources(
            corpus: configuration.corpus, count: configuration.animations, frames: configuration.frames,
            frameDuration: configuration.frameDuration
        ).make(progress: progress)
        var result = AnimationBenchmarkResult(configuration: configuration)
        try await measureReference(sources, into: &result)
        progress(
            String(
                format: "reference: %d frames decoded up front in %.2f CPU s, %.1f MB held",
                result.referenceFramesDecoded, result.referenceDecodeCPUSeconds,
                Double(result.referenceHeldBytes) / 1_048_576))
        try await play(sources, into: &result)
        progress(String(format: "played %.1f s: %d frames shown", configuration.seconds, result.framesShown))
        return result
    }

    /// The options every decode uses: the rows' thumbnail size.
    var thumbnail: ThumbnailOptions { ThumbnailOptions(maxPixelSize: configuration.size) }

    /// Decodes every frame of every source once and keeps them all.
    private func measureReference(_ sources: [AnimationSources.Source], into result: inout AnimationBenchmarkResult)
        async throws
    {
        let decoder = VipsDecoder()
        let cpu = ProcessStats.cpuSeconds()
        var held: [[PixelImage]] = []
        for source in sources {
            let frames = try await decoder.decodeFrames(
                source.data, range: 0..<configuration.frames, options: DecodingOptions(thumbnail: thumbnail)
            ).frames
            held.append(frames)
        }
        result.referenceDecodeCPUSeconds = ProcessStats.cpuSeconds() - cpu
        result.referenceFramesDecoded = held.reduce(0) { $0 + $1.count }
        result.referenceHeldBytes = held.joined().reduce(0) { $0 + $1.pixels.count }
        result.frameBytes = result.referenceHeldBytes / max(1, result.referenceFramesDecoded)
    }

    /// Plays every source in its own slot for the configured time.
    @MainActor
    private func play(_ sources: [AnimationSources.Source], into result: inout AnimationBenchmarkResult) async throws {
        var pipelineConfiguration = ImagePipeline.Configuration(decoder: VipsDecoder())
        if let budget = configuration.frameBudget { pipelineConfiguration.animationFrameBudget = budget }
        result.frameBudget = pipelineConfiguration.animationFrameBudget
        let pipeline = ImagePipeline(configuration: pipelineConfiguration)
        let ticker = AnimationTicker()
        let slots = sources.map { source in
            let slot = ImageSlot(pipeline: pipeline)
            slot.animationTicker = ticker
            slot.load(
                ImageRequest(id: source.name, data: source.data, thumbnail: thumbnail, options: [.animated]))
            return slot
        }
        while slots.contains(where: { $0.phase.isLoading }) { try await Task.sleep(for: .milliseconds(5)) }
        guard slots.allSatisfy({ $0.phase.response?.animation != nil }) else {
            throw PinholeError(.decodingFailed, "not every source loaded as an animation")
        }
        let before = (pipeline.metrics, ticker.metrics, ProcessStats.cpuSeconds())
        let start = ContinuousClock.now
        let end = start + .seconds(configuration.seconds)
        var frame = 0
        while ContinuousClock.now < end {
            ticker.tick(at: .now)
            frame += 1
            try await Task.sleep(until: start + .microseconds(16_667 * frame), clock: .continuous)
        }
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        let (metrics, ticks) = (pipeline.metrics, ticker.metrics)
        result.playedSeconds = elapsed
        result.decodeCPUSeconds = ProcessStats.cpuSeconds() - before.2
        result.framesDecoded = metrics.framesDecoded - before.0.framesDecoded
        result.framesReused = metrics.framesReused - before.0.framesReused
        result.framesEvicted = metrics.framesEvicted - before.0.framesEvicted
        result.framesShown = ticks.framesShown - before.1.framesShown
        result.framesSkipped = ticks.framesSkipped - before.1.framesSkipped
        result.ticks = ticks.ticks - before.1.ticks
        result.tickSeconds = (ticks.tickTime - before.1.tickTime) / .seconds(1)
        result.maxTickSeconds = ticks.maxTickTime / .seconds(1)
        result.peakFrameBytes = pipeline.peakFrameBytes
        for slot in slots { slot.cancel() }
    }
}
