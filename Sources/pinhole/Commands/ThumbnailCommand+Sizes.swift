import Foundation
import Pinhole

extension ThumbnailCommand.Configuration {
    /// Every size asked for, in the order given: ``size``, then ``extraSizes``.
    var sizes: [Int] { [size] + extraSizes }

    /// The sizes of `--size`: one number, or several separated by commas (`64,320,1080`), each 1-16384 and each
    /// once; `[360]` when the option was not given.
    ///
    /// - Throws: ``UsageError`` for a value that is not a number, out of range, or given twice.
    static func parseSizes(_ text: String?) throws(UsageError) -> [Int] {
        guard let text else { return [360] }
        var sizes: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard let number = Int(trimmed) else {
                guard text.contains(",") else { throw UsageError("--size needs a whole number, not '\(text)'") }
                throw UsageError("--size needs whole numbers separated by commas, not '\(text)'")
            }
            guard (1...16384).contains(number) else {
                throw UsageError("--size must be between 1 and 16384, not \(number)")
            }
            guard !sizes.contains(number) else { throw UsageError("--size gives \(number) twice") }
            sizes.append(number)
        }
        return sizes
    }

    /// Several sizes make one output per size of every input (in a batch run too: one record per output, and
    /// the counters count outputs); the options that make one box or one cell per input do not combine with them.
    ///
    /// - Throws: ``UsageError`` for several sizes with `--width`/`--height` or `--contact-sheet`.
    func checkSeveralSizes() throws(UsageError) {
        guard !extraSizes.isEmpty else { return }
        if request.animated { throw UsageError("several --size values cannot be combined with --animated") }
        if request.box != nil {
            throw UsageError("several --size values cannot be combined with --width and --height (one box)")
        }
        if contactSheet != nil {
            throw UsageError("several --size values cannot be combined with --contact-sheet (one cell size)")
        }
    }
}

extension ThumbnailCommand {
    /// How outputs are named at each size, in the order of ``Configuration/sizes``.
    var outputNamings: [OutputNaming] {
        configuration.sizes.map { size in
            OutputNaming(
                size: size, fileExtension: configuration.request.nameLabel(size: size) + configuration.fileExtension)
        }
    }

    /// The output names of `relativePaths` at every size: `[size][input]`, each size named as a single
    /// `--size` names it (`a.64.jpg`, `a.320.jpg`).
    func outputNamesBySize(for relativePaths: [String]) -> [[String]] {
        outputNamings.map { $0.names(for: relativePaths) }
    }

    /// Loads `input` once at every size (``ImagePipeline/images(for:sizes:)``), then encodes and writes each size
    /// to its path in `outputs` (one per size, in the order of ``Configuration/sizes``). A failure of the load
    /// fails every size of the input.
    func thumbnails(_ input: InputFile, to outputs: [String], pipeline: ImagePipeline) async -> [Outcome] {
        let request = configuration.request.request(for: input.source, size: configuration.size)
        let sizes = configuration.sizes.map { configuration.request.thumbnail(size: $0) }
        let responses: [ImageResponse]
        do {
            responses = try await pipeline.images(for: request, sizes: sizes)
            try Task.checkCancellation()
        } catch {
            return outputs.map { _ in .failed(Self.failure(input.path, error)) }
        }
        var outcomes: [Outcome] = []
        for (response, output) in zip(responses, outputs) {
            outcomes.append(await write(response.image, of: input, to: output))
        }
        return outcomes
    }

    /// Encodes `image` (a thumbnail of `input`) and writes it to `output`.
    func write(_ image: PixelImage, of input: InputFile, to output: String) async -> Outcome {
        do {
            let encoding = EncodingOptions(format: configuration.format, quality: configuration.quality)
            let encoded = try await codecs.encoder.encode(image, options: encoding)
            try await ioPool.run { try FileAccess.write(encoded, to: output) }
            let reportsHash = configuration.json || configuration.jsonLines
            let hash = reportsHash ? try await codecs.makeThumbHash?(image) : nil
            let written = ThumbnailReport.Output(
                input: input.path, output: output, width: image.width, height: image.height, bytes: encoded.count,
                thumbhash: hash?.base64)
            return .written(written, image: nil)
        } catch {
            return .failed(Self.failure(input.path, error))
        }
    }
}
