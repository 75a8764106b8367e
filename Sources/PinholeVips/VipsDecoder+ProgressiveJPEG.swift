import CTurboJPEG
package import Foundation
package import Pinhole

/// DC-only decoding of progressive JPEGs: when the fast path decodes at 1/8 scale, libjpeg gets the file without
/// the AC scans it would decode for nothing (``JPEGScanFilter``), with block smoothing off.
///
/// Why it is exact: at 1/8 libjpeg's 1×1 inverse DCT reads each block's DC coefficient alone, and with every DC
/// scan (first and refinement passes) present the DC coefficients are complete. Block smoothing is what would
/// differ — libjpeg estimates missing AC coefficients from neighbouring DC values when it has not seen them
/// (up to 45 levels of difference) — so it is switched off; with all scans present it never applies, so the
/// whole-file decode it is compared with is unaffected. Components that libjpeg gives a larger inverse DCT at
/// that scale (subsampled chroma of 4:2:0 files gets a 2×2 one instead of upsampling) keep all their AC scans.
/// `Tests/PinholeVipsTests/ProgressiveDCOnlyTests.swift` checks the result against TurboJPEG's whole-file 1/8
/// decode on every progressive corpus photo and fixture (at most 1 level of difference; measured: identical).
///
/// At 1/4 and 1/2 no scan can be left out exactly: libjpeg's reduced inverse DCTs (`jpeg_idct_4x4`,
/// `jpeg_idct_2x2`) read coefficients up to row and column 7, which every AC scan of the usual scan scripts covers,
/// and a refinement scan cannot be decoded without the first passes before it. At 1/4 an approximation is taken
/// instead (VipsDecoder+ProgressiveRefinement.swift).
extension VipsDecoder {
    /// The decode scale this path takes: 1/8.
    static let dcOnlyScaleDenominator = 8

    /// What a scan-filtered route decodes: libjpeg's frame at the route's scale and the filtered stream.
    struct ScanFilteredStream {
        var frame: LibJPEG.Frame
        var filtered: JPEGScanFilter.Result
        /// 8 for the DC-only route, 4 for the one without last-bit refinements.
        var scaleDenominator: Int
    }

    /// The 1/8-scale pixels of the progressive JPEG in `bytes`, decoded from its DC scans and the AC scans of
    /// components that need them; `nil` when ``progressiveDCOnlyStream(_:)`` declines the data, or when libjpeg
    /// warns about or fails on the stream. The caller then decodes the whole file as before, and the libvips path
    /// decides from its own evidence whether data on which libjpeg warns is truncated (as for TurboJPEG's
    /// warnings: the fast paths never report truncation themselves).
    ///
    /// - Parameter bands: 1 (grey) or 3 (RGB), as TurboJPEG would be asked.
    static func progressiveDCOnlyPixels(_ bytes: UnsafeRawBufferPointer, bands: Int) -> TurboJPEGDecoder.ScaledPixels? {
        progressiveDCOnlyStream(bytes).flatMap { scanFilteredPixels($0, bands: bands) }
    }

    /// libjpeg's frame at 1/8 and the stream without the AC scans its 1×1 inverse DCTs never read; `nil` when the
    /// data is not a progressive JPEG libjpeg reads, has no AC scan to leave out, does not send every coefficient
    /// of every component to its last bit (libjpeg would smooth such a file's blocks; a file cut short is one), or
    /// its markers are not understood.
    static func progressiveDCOnlyStream(_ bytes: UnsafeRawBufferPointer) -> ScanFilteredStream? {
        guard let frame = LibJPEG.frame(bytes, scaleDenominator: dcOnlyScaleDenominator), frame.isProgressive else {
            return nil
        }
        let dcOnly = Set(frame.components.filter { $0.idctSize == 1 }.map(\.id))
        guard !dcOnly.isEmpty, let filtered = JPEGScanFilter.droppingACScans(of: bytes, dcOnlyComponents: dcOnly),
            filtered.droppedScans > 0, frame.components.allSatisfy({ filtered.completeComponents.contains($0.id) })
        else { return nil }
        return ScanFilteredStream(frame: frame, filtered: filtered, scaleDenominator: dcOnlyScaleDenominator)
    }

    /// Decodes the filtered stream at its scale (block smoothing off); the pixels and the number of libjpeg's
    /// warnings.
    ///
    /// - Throws: ``PinholeError/Code/truncated`` when libjpeg reports that the data ends before EOI (never a
    ///   grey-filled image), ``PinholeError/Code/decodingFailed`` with libjpeg's message.
    static func scanFilteredDecode(
        _ stream: ScanFilteredStream, bands: Int
    ) throws -> (pixels: TurboJPEGDecoder.ScaledPixels, warnings: Int) {
        let (pixels, report) = try stream.filtered.bytes.withUnsafeBytes { bytes in
            try LibJPEG.decode(
                bytes, scaleDenominator: stream.scaleDenominator, bands: bands, width: stream.frame.outputWidth,
                height: stream.frame.outputHeight)
        }
        if report.prematureEnd {
            throw PinholeError(.truncated, "jpeg data ends early (\(report.message))", detectedType: "jpeg")
        }
        let scaled = TurboJPEGDecoder.ScaledPixels(
            width: stream.frame.outputWidth, height: stream.frame.outputHeight, bands: bands, pixels: pixels)
        return (scaled, report.warningCount)
    }

    /// The 1/8-scale decode of the JPEG in `data` as the fast path makes it — from the DC scans only (`dcOnly`) or
    /// from every scan by TurboJPEG — as `gray8` or `rgb8` pixels in stored orientation, before any resize; `nil`
    /// when TurboJPEG cannot read the header, or `dcOnly` and ``progressiveDCOnlyPixels(_:bands:)`` declines the
    /// data, or libjpeg warns (the decoder then leaves the data to the libvips path). Not API: for the exactness
    /// tests, the fuzz target and the stage profile. Blocking.
    ///
    /// - Throws: ``PinholeError/Code/decodingFailed`` when TurboJPEG cannot be set up.
    package static func oneEighthScaleDecode(_ data: Data, dcOnly: Bool) throws -> PixelImage? {
        try scaledDecode(data, scaleDenominator: dcOnlyScaleDenominator, fewerScans: dcOnly)
    }

    /// The 1/`scaleDenominator` decode of the JPEG in `data` as the fast path makes it: from fewer scans when a
    /// progressive shortcut applies at that scale (`fewerScans`; `nil` when it declines the data) or from every scan
    /// by TurboJPEG, as `gray8` or `rgb8` pixels in stored orientation, before any resize; `nil` when TurboJPEG
    /// cannot read the header. Blocking.
    ///
    /// - Throws: ``PinholeError/Code/decodingFailed`` when TurboJPEG cannot be set up.
    static func scaledDecode(_ data: Data, scaleDenominator: Int, fewerScans: Bool) throws -> PixelImage? {
        let decoder = try TurboJPEGDecoder()
        let scaled = data.withUnsafeBytes { bytes -> TurboJPEGDecoder.ScaledPixels? in
            guard let header = decoder.header(bytes) else { return nil }
            let bands = header.colourSpace == Int32(TJCS_GRAY.rawValue) ? 1 : 3
            if fewerScans {
                return ProgressiveShortcuts.all.stream(bytes, scaleDenominator: scaleDenominator)
                    .flatMap { scanFilteredPixels($0, bands: bands) }
            }
            let factor = tjscalingfactor(num: 1, denom: Int32(scaleDenominator))
            return decoder.decode(bytes, header: header, factor: factor, grey: bands == 1)
        }
        guard let scaled else { return nil }
        return PixelImage(
            width: scaled.width, height: scaled.height, pixelFormat: scaled.bands == 1 ? .gray8 : .rgb8,
            pixels: scaled.pixels)
    }

    /// The stream the DC-only path would give libjpeg for the JPEG in `data` (its 1/8-scale decode), or `nil` when
    /// the path declines it. Not API: for `pinhole debug dc-only-stream`, which writes it out so that
    /// `scripts/callgrind-dc-only.sh` can count a C decoder's instructions on it and on the whole file.
    package static func dcOnlyStream(_ data: Data) -> [UInt8]? {
        data.withUnsafeBytes { progressiveDCOnlyStream($0)?.filtered.bytes }
    }
}
