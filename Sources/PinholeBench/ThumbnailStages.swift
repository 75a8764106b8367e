import Foundation
import Pinhole
import PinholeVips

#if canImport(Glibc)
    import Glibc
#endif

/// `pinhole bench thumbnail --stages`: where each thumbnail's CPU time goes, stage by stage, per kind of input
/// (JPEG baseline, JPEG progressive, JPEG the fast path declines, PNG, WebP), and the progressive JPEGs' decode
/// with and without DC-only decoding, in one process.
///
/// Stages, each timed alone on one worker thread (``VipsDecoder/StagedThumbnail`` cuts the decoder's own work):
/// read (the file into memory), header (sniffing, libvips' header read, limits, the route), scan filter (the
/// DC-only route's byte scan), decode (entropy decoding and the inverse DCT at the route's scale, to YCbCr; on
/// the libvips route the loader's whole decode at its shrink-on-load), colour (the scaled decode to RGB minus
/// the decode to YCbCr: upsampling and YCbCr → RGB; on the libvips route the thumbnail with its colour profiles
/// minus without them: the ICC transforms), resize (lanczos3, rotation, crop, the copy out; on the libvips route
/// the rest of `vips_thumbnail`), encode (JPEG at the quality, from the thumbnail's pixels), write (the file).
/// The end-to-end figure runs the same work through ``VipsDecoder`` and ``VipsEncoder`` as `pinhole thumbnail`
/// does, to show what the stages leave out.
///
/// Figures are process CPU time (`CLOCK_PROCESS_CPUTIME_ID`: libvips computes on its own worker thread), the
/// median of ``Configuration/runs`` rounds per file, averaged over the files of a kind. A benchmark, not a test.
public struct ThumbnailStages: Sendable {
    /// What to measure.
    public struct Configuration: Sendable {
        /// The corpus directory (image files found by content).
        public var corpus: String
        /// Longest side in pixels; 360 by default.
        public var size = 360
        /// JPEG quality; 80 by default.
        public var quality = 80
        /// Rounds per file (the median is kept); 3 by default.
        public var runs = 3

        public init(corpus: String) {
            self.corpus = corpus
        }
    }

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// One worker thread: every stage of a file runs on it, one after another.
    private static let pool = WorkerThreadPool(threadCount: 1, name: "pinhole-stages")

    /// Profiles every file of the corpus; `log` receives one line per file.
    ///
    /// - Throws: ``PinholeError`` when the corpus has no images or a file cannot be thumbnailed.
    public func run(log: @Sendable (String) -> Void = { _ in }) async throws -> ThumbnailStagesResult {
        let images = try await WorkerThreadPool.io.run { [configuration] in
            try ThumbnailBenchmark.listImages(configuration.corpus)
        }
        guard !images.isEmpty else { throw PinholeError(.fileNotFound, "no images in \(configuration.corpus)") }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pinhole-stages-\(UUID())").path
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: output) }
        var files: [ThumbnailStagesResult.File] = []
        for (index, path) in images.enumerated() {
            let target = output + "/\(index).jpg"
            let file = try await Self.pool.run { [configuration] in
                try Self.profile(path, to: target, configuration: configuration)
            }
            log(String(format: "%@: %@ %.1f ms", file.name, file.route, file.stages.sum))
            files.append(file)
        }
        return ThumbnailStagesResult(
            corpus: configuration.corpus, size: configuration.size, quality: configuration.quality,
            runs: configuration.runs, loadAverage: Self.loadAverage(), files: files)
    }

    /// Blocking: the stages of one file, the median of each over the rounds, and its progressive A/B.
    private static func profile(
        _ path: String, to target: String, configuration: Configuration
    ) throws -> ThumbnailStagesResult.File {
        let encoding = EncodingOptions(format: .jpeg, quality: configuration.quality)
        let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: configuration.size))
        var rounds: [ThumbnailStagesResult.Stages] = []
        var endToEnd: [Double] = []
        var everyScan: [Double] = []
        var fewerScans: [Double] = []
        var route = ""
        var kind = ""
        for _ in 0..<max(1, configuration.runs) {
            var stages = ThumbnailStagesResult.Stages()
            let data = try timed(&stages.read) { try read(path) }
            let staged = try timed(&stages.header) {
                try VipsDecoder.StagedThumbnail(data, maxPixelSize: configuration.size)
            }
            let input = timed(&stages.scanFilter) { staged.decoderInput() }
            try timed(&stages.decode) { try staged.decodeWithoutColour(input) }
            var scaledDecode = 0.0
            let pixels = try timed(&scaledDecode) { try staged.decode(input) }
            let image = try timed(&stages.resize) { try staged.finish(pixels) }
            if staged.route == .libvips {
                var withoutProfiles = stages.resize
                if staged.convertsColourWithProfiles {
                    withoutProfiles = 0
                    try timed(&withoutProfiles) { try staged.finishWithoutColourProfiles() }
                }
                stages.colour = max(0, stages.resize - withoutProfiles)
                stages.resize = max(0, withoutProfiles - stages.decode)
            } else {
                stages.colour = max(0, scaledDecode - stages.decode)
            }
            let encoded = try timed(&stages.encode) { try VipsEncoder.encodeSynchronously(image, options: encoding) }
            try timed(&stages.write) { try encoded.write(to: URL(fileURLWithPath: target)) }
            rounds.append(stages)
            route = staged.route.rawValue
            kind = Self.kind(staged)
            var whole = 0.0
            try timed(&whole) {
                let decoded = try VipsDecoder().decodeSynchronously(try read(path), options: options)
                try VipsEncoder.encodeSynchronously(decoded.image, options: encoding)
                    .write(to: URL(fileURLWithPath: target))
            }
            endToEnd.append(whole)
            if staged.isProgressiveJPEG {
                // The path before issue 15 (every scan) and the shortcuts, one after the other in every round.
                for useShortcuts in [false, true] {
                    var milliseconds = 0.0
                    try timed(&milliseconds) {
                        let decoder = VipsDecoder(
                            progressiveDCOnly: useShortcuts, progressiveRefinementSkipping: useShortcuts)
                        let decoded = try decoder.decodeSynchronously(data, options: options)
                        _ = try VipsEncoder.encodeSynchronously(decoded.image, options: encoding)
                    }
                    if useShortcuts { fewerScans.append(milliseconds) } else { everyScan.append(milliseconds) }
                }
            }
        }
        return ThumbnailStagesResult.File(
            name: URL(fileURLWithPath: path).lastPathComponent, kind: kind, route: route,
            stages: .median(of: rounds), endToEnd: Samples(endToEnd).median,
            progressiveEveryScan: everyScan.isEmpty ? nil : Samples(everyScan).median,
            progressiveFewerScans: fewerScans.isEmpty ? nil : Samples(fewerScans).median)
    }
}
