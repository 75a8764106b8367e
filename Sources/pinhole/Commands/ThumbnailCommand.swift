import Foundation
import Pinhole
import PinholeBench

/// `pinhole thumbnail`: reads every input, makes its thumbnail, writes it, and reports what happened.
///
/// The codecs are injected (``Codecs``), so the command's logic runs with any ``ImageDecoding`` and
/// ``ImageEncoding``; the executable passes the libvips ones. At most ``Configuration/jobs`` images are in
/// flight at any moment (a task group refilled as tasks finish). Files are read and written on
/// ``WorkerThreadPool/io``; decoding and encoding run where the codecs run them (their own pool).
///
/// One input's failure never stops the others: it becomes a ``ThumbnailReport/Failure``.
struct ThumbnailCommand: Sendable {
    /// The decoder, encoder and contact-sheet maker the command uses.
    struct Codecs: Sendable {
        var decoder: any ImageDecoding
        var encoder: any ImageEncoding
        /// Lays `images` out in a grid of square cells of `cellSize` pixels.
        var makeContactSheet: @Sendable (_ images: [PixelImage], _ cellSize: Int) async throws -> PixelImage
    }

    /// Progress after each finished input: (finished, failed, total).
    typealias Progress = (_ finished: Int, _ failed: Int, _ total: Int) -> Void

    let configuration: Configuration
    let codecs: Codecs
    let ioPool: WorkerThreadPool

    init(configuration: Configuration, codecs: Codecs, ioPool: WorkerThreadPool = .io) {
        self.configuration = configuration
        self.codecs = codecs
        self.ioPool = ioPool
    }

    /// What became of one input.
    private enum Outcome: Sendable {
        case written(ThumbnailReport.Output, image: PixelImage?, bytesIn: Int)
        case failed(ThumbnailReport.Failure, bytesIn: Int)
    }

    /// Runs the command over all inputs.
    ///
    /// - Parameter progress: called on the calling task after each input finishes (for a progress bar).
    /// - Returns: the report; its ``ThumbnailReport/exitStatus`` is the process's.
    func run(progress: Progress? = nil) async -> ThumbnailReport {
        let clock = ContinuousClock()
        let start = clock.now
        var report = emptyReport()
        let inputs: [InputFile]
        do {
            try await ioPool.run { [configuration] in try FileAccess.createDirectory(configuration.outputDirectory) }
            inputs = try await InputCollector(excluding: excludedPaths, pool: ioPool).collect(configuration.inputs)
        } catch {
            report.errors.append(Self.failure(configuration.outputDirectory, error))
            return report
        }
        let naming = OutputNaming(size: configuration.size, fileExtension: configuration.fileExtension)
        let outputNames = naming.names(for: inputs.map(\.relativePath))
        let outcomes = await process(inputs, outputNames: outputNames, progress: progress)

        var images: [PixelImage] = []
        for outcome in outcomes {
            switch outcome {
            case .written(let output, let image, let bytesIn):
                report.outputs.append(output)
                report.bytesIn += bytesIn
                report.bytesOut += output.bytes
                if let image { images.append(image) }
            case .failed(let failure, let bytesIn):
                report.errors.append(failure)
                report.bytesIn += bytesIn
            }
        }
        report.succeeded = report.outputs.count
        report.failed = report.errors.count
        if let sheet = configuration.contactSheet {
            do {
                report.contactSheet = try await writeContactSheet(images, to: sheet)
            } catch {
                report.errors.append(Self.failure(sheet, error))
            }
        }
        let seconds = (clock.now - start) / .seconds(1)
        report.seconds = seconds
        report.imagesPerSecond = seconds > 0 ? Double(report.succeeded) / seconds : 0
        report.peakRSSBytes = ProcessStats.peakResidentBytes()
        return report
    }

    /// Processes `inputs` with at most ``Configuration/jobs`` in flight; outcomes come back in input order.
    private func process(_ inputs: [InputFile], outputNames: [String], progress: Progress?) async -> [Outcome] {
        var outcomes = [Outcome?](repeating: nil, count: inputs.count)
        var finished = 0
        var failed = 0
        await withTaskGroup(of: (Int, Outcome).self) { group in
            var next = 0
            func startNext() {
                guard next < inputs.count else { return }
                let index = next
                let directory = configuration.outputDirectory
                let output = (directory.hasSuffix("/") ? directory : directory + "/") + outputNames[index]
                group.addTask { [self] in (index, await thumbnail(inputs[index], to: output)) }
                next += 1
            }
            for _ in 0..<min(configuration.jobs, inputs.count) { startNext() }
            for await (index, outcome) in group {
                outcomes[index] = outcome
                finished += 1
                if case .failed = outcome { failed += 1 }
                progress?(finished, failed, inputs.count)
                startNext()
            }
        }
        return outcomes.compactMap { $0 }
    }

    /// Under `--untrusted`, the checks each input passes before it is read.
    private var untrustedGuard: UntrustedFileCheck? {
        configuration.untrusted ? UntrustedFileCheck(root: configuration.allowedRoot) : nil
    }

    /// Reads, decodes, encodes and writes one input.
    private func thumbnail(_ input: InputFile, to output: String) async -> Outcome {
        var bytesIn = 0
        do {
            let data = try await ioPool.run { [untrustedGuard] in
                try untrustedGuard?.checkFile(input.path)
                return try FileAccess.read(input.path)
            }
            bytesIn = data.count
            if let error = PinholeError.forSniffed(ImageFormat.sniff(data)) { throw error }
            var options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: configuration.size))
            if configuration.untrusted {
                options.maxPixelCount = min(options.maxPixelCount, SourcePolicy.untrustedMaxPixelCount)
                options.maxFrameCount = min(options.maxFrameCount, SourcePolicy.untrustedMaxFrameCount)
            }
            let decoded = try await codecs.decoder.decode(data, options: options)
            try Task.checkCancellation()
            let encoding = EncodingOptions(format: configuration.format, quality: configuration.quality)
            let encoded = try await codecs.encoder.encode(decoded.image, options: encoding)
            try await ioPool.run { try FileAccess.write(encoded, to: output) }
            let written = ThumbnailReport.Output(input: input.path, output: output, width: decoded.image.width,
                                                 height: decoded.image.height, bytes: encoded.count)
            return .written(written, image: configuration.contactSheet == nil ? nil : decoded.image, bytesIn: bytesIn)
        } catch {
            return .failed(Self.failure(input.path, error), bytesIn: bytesIn)
        }
    }

    private func writeContactSheet(_ images: [PixelImage], to path: String) async throws -> ThumbnailReport.ContactSheet {
        guard !images.isEmpty else { throw PinholeError(.invalidRequest, "no thumbnails to put on a contact sheet") }
        let format = Configuration.contactSheetFormat(for: path) ?? .jpeg
        let sheet = try await codecs.makeContactSheet(images, configuration.size)
        let data = try await codecs.encoder.encode(sheet, options: EncodingOptions(format: format, quality: 85))
        try await ioPool.run { try FileAccess.write(data, to: path) }
        return ThumbnailReport.ContactSheet(output: path, width: sheet.width, height: sheet.height, bytes: data.count)
    }

    /// Paths never taken as inputs: the output directory and the contact sheet.
    private var excludedPaths: [String] {
        [configuration.outputDirectory] + (configuration.contactSheet.map { [$0] } ?? [])
    }

    private func emptyReport() -> ThumbnailReport {
        ThumbnailReport(
            succeeded: 0, failed: 0, seconds: 0, imagesPerSecond: 0, peakRSSBytes: 0, bytesIn: 0, bytesOut: 0,
            jobs: configuration.jobs, size: configuration.size, format: configuration.format.name,
            outputDirectory: configuration.outputDirectory, outputs: [], errors: [], contactSheet: nil)
    }

    private static func failure(_ input: String, _ error: any Error) -> ThumbnailReport.Failure {
        switch error {
        case let error as PinholeError:
            ThumbnailReport.Failure(input: input, kind: error.code.kind, message: error.message)
        case is CancellationError:
            ThumbnailReport.Failure(input: input, kind: "cancelled", message: "cancelled")
        default:
            ThumbnailReport.Failure(input: input, kind: "unknown", message: String(describing: error))
        }
    }
}
