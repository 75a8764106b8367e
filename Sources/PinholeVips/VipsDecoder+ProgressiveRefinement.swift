import CTurboJPEG
package import Foundation
package import Pinhole

/// Progressive JPEGs decoded at 1/4 scale without the AC refinement scans that send each coefficient's last bit
/// (``JPEGScanFilter/Rule/lastBitACRefinements``), with block smoothing off.
///
/// Why: at 1/4 no scan of the usual scan scripts can be left out exactly (VipsDecoder+ProgressiveJPEG.swift), but
/// the last-bit refinement passes (`Ah = 1, Al = 0`: in libjpeg's default script one for luma and one per chroma
/// component) are a large share of a photo's bytes and of its entropy decoding, and change a thumbnail little:
/// every AC coefficient they cover loses its lowest bit (at most one quantization step). An approximation, so it
/// has a bar: PSNR ≥ 45 dB against the whole-file decode, for the thumbnail the fast path makes from the 1/4 decode,
/// at the largest box that still decodes at 1/4 (the shortest resize, where the error is largest). At 1/2 the
/// margin was too thin, so the route is not taken there. Measurements: BENCHMARKS.md, "2026-11-30 evening".
///
/// `Tests/PinholeVipsTests/ProgressiveRefinementSkippingTests.swift` holds every progressive corpus photo and
/// fixture to the bar. ``VipsDecoder/progressiveRefinementSkipping`` `false` turns it off (the same pixels as
/// TurboJPEG's whole-file decode again). Declined — the whole file is then decoded — when the file is not
/// progressive, has no such scan, does not send every coefficient of every component to its last bit (libjpeg
/// would smooth its blocks; a file cut short is one), or when libjpeg warns about the filtered stream.
extension VipsDecoder {
    /// Which scans of a progressive JPEG the fast path may leave out.
    struct ProgressiveShortcuts: Sendable, Equatable {
        /// At 1/8: every AC scan a 1×1 inverse DCT never reads (exact; ``VipsDecoder/progressiveDCOnly``).
        var dcOnly = true
        /// At 1/4: the last-bit AC refinement scans (approximate;
        /// ``VipsDecoder/progressiveRefinementSkipping``).
        var skipsLastBitRefinements = true

        /// Both shortcuts: the default.
        static let all = ProgressiveShortcuts()
        /// Neither: every scan is decoded, by TurboJPEG.
        static let none = ProgressiveShortcuts(dcOnly: false, skipsLastBitRefinements: false)

        /// The filtered stream for a decode of `bytes` at 1/`scaleDenominator`, when a shortcut applies there and
        /// does not decline the data.
        func stream(_ bytes: UnsafeRawBufferPointer, scaleDenominator: Int) -> ScanFilteredStream? {
            switch scaleDenominator {
            case dcOnlyScaleDenominator where dcOnly: progressiveDCOnlyStream(bytes)
            case refinementSkippingScaleDenominator where skipsLastBitRefinements:
                progressiveWithoutLastBitStream(bytes)
            default: nil
            }
        }
    }

    /// The decode scale the route without last-bit refinements takes: 1/4.
    static let refinementSkippingScaleDenominator = 4

    /// libjpeg's frame at 1/4 and the stream without the last-bit AC refinement scans; `nil` when the data is not
    /// a progressive JPEG libjpeg reads, has no such scan, does not send every coefficient of every component to
    /// its last bit, or its markers are not understood.
    static func progressiveWithoutLastBitStream(_ bytes: UnsafeRawBufferPointer) -> ScanFilteredStream? {
        let scale = refinementSkippingScaleDenominator
        guard let frame = LibJPEG.frame(bytes, scaleDenominator: scale), frame.isProgressive,
            let filtered = JPEGScanFilter.filtering(bytes, dropping: .lastBitACRefinements), filtered.droppedScans > 0,
            frame.components.allSatisfy({ filtered.completeComponents.contains($0.id) })
        else { return nil }
        return ScanFilteredStream(frame: frame, filtered: filtered, scaleDenominator: scale)
    }

    /// The pixels of a filtered stream at its scale, or `nil` when libjpeg warns about or fails on it (the caller
    /// then decodes the whole file).
    ///
    /// - Parameter bands: 1 (grey) or 3 (RGB), as TurboJPEG would be asked.
    static func scanFilteredPixels(_ stream: ScanFilteredStream, bands: Int) -> TurboJPEGDecoder.ScaledPixels? {
        guard let (pixels, warnings) = try? scanFilteredDecode(stream, bands: bands), warnings == 0 else { return nil }
        return pixels
    }

    /// The power-of-two denominator of a TurboJPEG scaling factor (8 for 1/8), or `nil` for any other factor.
    static func scaleDenominator(of factor: tjscalingfactor) -> Int? {
        guard factor.num > 0, factor.denom.isMultiple(of: factor.num) else { return nil }
        return Int(factor.denom / factor.num)
    }

    /// The 1/4-scale decode of the JPEG in `data` as the fast path makes it — without its last-bit AC refinement
    /// scans (`skippingRefinements`, `nil` when that route declines the data) or from every scan by TurboJPEG —
    /// as `gray8` or `rgb8` pixels in stored orientation, before any resize; `nil` when TurboJPEG cannot read the
    /// header. Not API: for the quality tests and the fuzz target. Blocking.
    ///
    /// - Throws: ``PinholeError/Code/decodingFailed`` when TurboJPEG cannot be set up.
    package static func oneQuarterScaleDecode(_ data: Data, skippingRefinements: Bool) throws -> PixelImage? {
        try scaledDecode(data, scaleDenominator: refinementSkippingScaleDenominator, fewerScans: skippingRefinements)
    }
}
