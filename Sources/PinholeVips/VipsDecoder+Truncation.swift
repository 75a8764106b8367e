import CPinholeCodecs
import CPinholeVips
import Foundation
import Pinhole

/// Truncation, from the decoders' own evidence for one decode.
///
/// Never from where an end marker sits (bytes after a complete image are fine: padding, an upload tool's text, the
/// video of a "motion photo") and never from libvips' error text, which lives in a process-global buffer that
/// concurrent decodes share. The evidence, per format:
/// - JPEG, PNG, TIFF: the format's libvips loader, run again at `fail_on=none` on a source of our own, asked for
///   bytes past the end (libjpeg's and libpng's "premature end of data", libtiff reading past the end)
///   (`CPinholeVips_loader_reads_past_end`); on the TurboJPEG fast path, libjpeg's own first warning;
/// - GIF: giflib ran out of bytes before the trailer (libvips' libnsgif returns the frames it has in silence);
/// - WebP: libwebpdemux found chunks declared longer than the data;
/// - HEIF, AVIF: libheif failed with `heif_suberror_End_of_data`;
/// - BMP: the file size in the header is larger than the data (what ImageMagick, libvips' BMP reader, checks and
///   reports as "improper image header");
/// - SVG: none (an XML parse error is a decoding failure).
extension VipsDecoder {
    /// What a decoder said about the end of the data.
    enum TruncationEvidence: Equatable {
        /// The decoder wanted bytes past the end.
        case endsEarly
        /// The decoder reached the end of the image within the data.
        case complete
        /// No evidence either way (a decoder that cannot tell, or data damaged in another way).
        case unknown
    }

    /// Asks the decoder of `format` whether `data` ends before its image does. Call on a worker thread, only after
    /// libvips failed (or, for GIF, succeeded: see ``checkGIFIsComplete(_:)``): for JPEG, PNG, TIFF and HEIF it
    /// decodes once more, at most `maxPixelCount` pixels (a larger image gives only its header's evidence).
    /// `interruption` stops that decode too (the result is then ``TruncationEvidence/unknown``).
    static func truncationEvidence(
        _ data: Data, format: ImageFormat, interruption: DecodeInterruption?,
        maxPixelCount: Int = DecodingOptions.defaultMaxPixelCount
    ) -> TruncationEvidence {
        if let interruption, interruption.check() != .running { return .unknown }
        let sourceLoaders: [ImageFormat: (name: String, shrink: Int32, exactReads: Int32)] = [
            .jpeg: ("jpegload_source", 8, 0), .png: ("pngload_source", 1, 0), .tiff: ("tiffload_source", 1, 1),
        ]
        let status: Int32 = data.withUnsafeBytes { bytes in
            let base = bytes.baseAddress
            if let loader = sourceLoaders[format] {
                let status = CPinholeVips_loader_reads_past_end(
                    base, bytes.count, loader.name, loader.shrink, loader.exactReads, Int64(maxPixelCount),
                    interruption?.pointer)
                // That run's own libvips errors concern nobody: drop them rather than let them reach the next
                // failure's message (the buffer is process-global, so this is hygiene, not evidence).
                _ = Vips.takeErrorMessage()
                return status
            }
            switch format {
            case .gif: return CPinholeCodecs_gif_ends_early(base, bytes.count)
            case .webp: return CPinholeCodecs_webp_ends_early(base, bytes.count)
            case .heif, .avif: return CPinholeCodecs_heif_ends_early(base, bytes.count, Int64(maxPixelCount))
            case .bmp: return bmpDeclaresMoreBytes(bytes) ? 1 : -1
            default: return -1
            }
        }
        switch status {
        case 1: return .endsEarly
        case 0: return .complete
        default: return .unknown
        }
    }

    /// A GIF that libvips decoded is complete only if giflib reaches its trailer: libnsgif gives the frames it
    /// has without complaint, so a GIF cut after its first frame would otherwise pass as whole.
    ///
    /// - Throws: ``PinholeError/Code/truncated`` when giflib runs out of bytes before the trailer.
    static func checkGIFIsComplete(_ data: Data) throws {
        let status = data.withUnsafeBytes { CPinholeCodecs_gif_ends_early($0.baseAddress, $0.count) }
        if status == 1 {
            throw PinholeError(.truncated, "gif data ends before its trailer", detectedType: ImageFormat.gif.name)
        }
    }

    /// The error for a libvips failure on `data`: ``PinholeError/Code/truncated`` when the decoder's evidence says
    /// the data ends early (``truncationEvidence(_:format:interruption:)``), else
    /// ``PinholeError/Code/decodingFailed``; the message keeps libvips' own words (a diagnostic only).
    static func decodingError(
        _ message: String, format: ImageFormat, data: Data, interruption: DecodeInterruption?
    ) -> PinholeError {
        if truncationEvidence(data, format: format, interruption: interruption) == .endsEarly {
            return PinholeError(.truncated, "\(format.name) data ends early (\(message))", detectedType: format.name)
        }
        return PinholeError(.decodingFailed, "cannot decode \(format.name): \(message)", detectedType: format.name)
    }

    /// Whether a BMP's header declares a larger file than `bytes` (its `bfSize`; 0, written by a few encoders,
    /// says nothing). Bytes past the declared size are fine.
    private static func bmpDeclaresMoreBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 6 else { return true }
        let declared = (2..<6).reduce(0) { $0 | Int(bytes[$1]) << (8 * ($1 - 2)) }
        return declared > bytes.count
    }
}
