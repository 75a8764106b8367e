import CPinholeCodecs
public import Foundation
public import Pinhole

extension VipsDecoder {
    /// About how many bytes a ``decode(_:options:)`` of `data` with `options` holds at its peak, read from the
    /// header alone (no pixel is decoded): the source bytes, the pixels loaded at the shrink-on-load scale, the
    /// output pixels, and what the format's codec keeps beside them.
    ///
    /// - Loaded pixels: JPEG at its DCT load shrink (1/2, 1/4, 1/8), 4 bytes a pixel, and what libjpeg keeps beside
    ///   them (``jpegLoadedBytes(_:shrunkPixels:framePixels:)``: the whole coefficient buffer for multiple scans);
    ///   SVG at the resized size; PNG the whole frame at 3 bytes a pixel, an interlaced (Adam7) one at twice its
    ///   stored pixel (libvips loads it whole); HEIF at 8 and AVIF at 8 (libheif's planes and libvips' copy); GIF
    ///   at 14 (the GIF decoder's frame, libvips' copy and the previous frame it keeps); lossless WebP at 9
    ///   (libwebp's decoded frame and its output); lossy WebP and every other format the whole frame at 4. An
    ///   alpha band adds what its premultiplied resize and its own decode hold: 3 bytes a pixel (2 for an
    ///   interlaced PNG, 6 for lossy WebP, 12 for AVIF, none for lossless WebP, whose frame already has it; not
    ///   GIF's, counted in its 14). Measured peaks: BENCHMARKS.md, "Memory admission".
    /// - At least twice the output pixels at 4 bytes (what the encode that follows holds), so a decode is admitted
    ///   only when its encode can be too.
    /// - The header's limits are checked first, as the decode checks them.
    /// - Parameter frames: the frames decoded together (``decodeFrames(_:range:options:)``): each one's output
    ///   pixels are held until the last is done; 1 by default.
    /// - Returns: bytes, ≥ `data.count`.
    /// - Throws: what ``readInfo(_:)`` throws, ``PinholeError/Code/tooManyPixels`` and
    ///   ``PinholeError/Code/tooManyFrames`` for headers beyond `options`' limits, and
    ///   ``PinholeError/Code/unsupportedFormat`` for a format outside ``DecodingOptions/untrustedFormats``.
    public func estimatedMemory(of data: Data, options: DecodingOptions, frames: Int = 1) async throws -> Int {
        let format = try Self.sniffedFormat(data)
        try Task.checkCancellation()
        let estimate = try await pool.run { () throws -> Int in
            try Vips.ensureInitialized()
            return try Vips.capturingWarnings {
                try Self.withLoaderPolicy(
                    data, format: format, untrustedFormats: options.untrustedFormats, interruption: nil
                ) {
                    let header = try Self.readHeader(data, format: format)
                    try header.checkLimits(options)
                    return Self.estimatedMemory(
                        of: data, format: format, header: header, options: options, frames: frames)
                }
            }
        }
        try Task.checkCancellation()
        return estimate
    }

    /// The estimate of ``estimatedMemory(of:options:)`` for a header already read. Blocking (reads a JPEG's
    /// frame header with libjpeg): call on a worker thread.
    static func estimatedMemory(
        of data: Data, format: ImageFormat, header: VipsHeader, options: DecodingOptions, frames: Int = 1
    ) -> Int {
        let bytesPerPixel = 4
        let frame = header.framePixelCount
        let layout = layout(options.thumbnail, header: header)
        let resized = layout.resized.width.multipliedReportingOverflow(by: layout.resized.height)
        let framePixels = layout.output.width.multipliedReportingOverflow(by: layout.output.height)
        let output = framePixels.partialValue.multipliedReportingOverflow(by: max(1, frames))
        guard !resized.overflow, !framePixels.overflow, !output.overflow, output.partialValue <= Int.max / 8 else {
            return Int.max
        }
        let loaded: Int
        switch format {
        case .jpeg:
            let shrink =
                options.thumbnail == nil
                ? 1 : jpegLoadShrink(width: header.info.width, height: header.info.height, box: layout.resized)
            let shrunk = (header.info.width / shrink) * (header.info.height / shrink)
            loaded = jpegLoadedBytes(data, shrunkPixels: shrunk, framePixels: frame)
        case .svg where options.thumbnail != nil:
            loaded = resized.partialValue * bytesPerPixel
        case .png where header.isInterlaced:
            loaded = frame * (2 * header.storedPixelBytes + (header.hasAlpha ? 2 : 0))
        case .png:
            loaded = frame * (header.hasAlpha ? 3 + 3 : 3)
        case .webp where isLosslessWebP(data):
            loaded = frame * 9
        case .webp:
            loaded = frame * (header.hasAlpha ? 10 : bytesPerPixel)
        case .heif:
            loaded = frame * (header.hasAlpha ? 8 + 3 : 8)
        case .avif:
            loaded = frame * (header.hasAlpha ? 20 : 8)
        case .gif:
            loaded = frame * 14
        default:
            loaded = frame * (header.hasAlpha ? bytesPerPixel + 3 : bytesPerPixel)
        }
        let decode = data.count + loaded + output.partialValue * bytesPerPixel
        // Never below what the encode of the output reserves after it (twice its pixels): a decode that fits only
        // to be refused at its encode would be work done for a refusal.
        return max(decode, 2 * output.partialValue * bytesPerPixel)
    }

    /// What a JPEG's decode holds besides its source bytes and output. With more than one scan (progressive, or
    /// a baseline image with non-interleaved scans) libjpeg buffers the whole image's coefficients (6 bytes a
    /// pixel at 4:4:4, 8 for CMYK, 3 at 4:2:0), and 1.5 bytes a pixel go beside them; with one scan, the pixels
    /// at the load shrink and a sixth of that buffer's size (measured 0.35–0.93 bytes a pixel for 4:2:0 to CMYK).
    /// A header libjpeg cannot read counts as a CMYK image of multiple scans.
    static func jpegLoadedBytes(_ data: Data, shrunkPixels: Int, framePixels: Int) -> Int {
        let jpeg = data.withUnsafeBytes { LibJPEG.frame($0, scaleDenominator: 1) }
        let coefficients = jpeg?.coefficientBytes ?? framePixels * 8
        guard let jpeg, !jpeg.hasMultipleScans else {
            return shrunkPixels * 4 + coefficients + framePixels * 3 / 2
        }
        return shrunkPixels * 4 + coefficients / 6
    }

    /// Whether libwebp reads a frame of `data` as lossless (`VP8L`); a header it cannot read counts as lossless,
    /// the larger estimate.
    static func isLosslessWebP(_ data: Data) -> Bool {
        data.withUnsafeBytes { CPinholeCodecs_webp_is_lossless($0.baseAddress, $0.count) } != 0
    }
}
