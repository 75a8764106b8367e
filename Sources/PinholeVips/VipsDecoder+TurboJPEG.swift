import CPinholeVips
import CTurboJPEG
import CVips
package import Foundation
import Pinhole

/// The JPEG fast path: TurboJPEG decodes at the smallest DCT scale that still covers the box, then libvips
/// finishes on the small image with the kernel `vips_thumbnail` uses (lanczos3, exact size, EXIF orientation).
///
/// Taken only for JPEGs that need nothing but scaling (``isJPEGFastPathEligible(_:)``); every other image, and
/// every JPEG TurboJPEG cannot parse, goes the libvips way. Sniffing, the header read and the pixel-limit checks
/// happen before either path, in ``decodeNow(_:format:options:jpegFastPath:shortcuts:interruption:onDiagnostic:)``.
extension VipsDecoder {
    /// Whether `data` is a JPEG the fast path decodes to the same picture as libvips: Huffman-coded baseline,
    /// extended or progressive, 8-bit, YCbCr or grey as libjpeg sees it (SOF components, Adobe APP14 transform,
    /// component ids), and either no ICC profile or, for YCbCr, an RGB one that calls itself sRGB. EXIF
    /// orientation does not matter (applied on both paths). Reads the header only; safe from any isolation.
    package static func isJPEGFastPathEligible(_ data: Data) -> Bool {
        guard markersAllowFastPath(data), let decoder = try? TurboJPEGDecoder() else { return false }
        return data.withUnsafeBytes { decoder.header($0) }?.isYCbCrOrGrey == true
    }

    /// The most scans a progressive JPEG may have on the fast path: 100 (the most `cjpeg -scans` and `jpegtran`
    /// accept; their default scripts write 10). TurboJPEG's decode cannot be stopped, and each scan of a
    /// non-interleaved component walks every block of it again, so a file of a few KB with ~1,900 scans costs a
    /// decode of thousands of pixels' worth per pixel; with more scans than this it goes the libvips way, where the
    /// decode's time limit and cancellation stop it at its next read of the input.
    static let fastPathScanLimit = 100

    /// The part of ``isJPEGFastPathEligible(_:)`` read from the markers alone (and, for a progressive JPEG, its
    /// scan count).
    private static func markersAllowFastPath(_ data: Data) -> Bool {
        guard let markers = JPEGMarkers(data), markers.isPlainHuffman8Bit else { return false }
        if markers.frameType == 0xC2 {
            let scans = data.withUnsafeBytes { JPEGScanFilter.scanCount($0) }
            guard let scans, scans <= fastPathScanLimit else { return false }
        }
        switch markers.componentCount {
        case 1:
            // Grey with a profile comes out of libvips as RGB (the profile is applied): leave it to libvips.
            guard markers.iccProfile == nil else { return false }
        case 3:
            guard markers.adobeTransform != 0, markers.profileIsAbsentOrSRGB else { return false }
        default:
            return false
        }
        return true
    }

    /// How much larger than the box the DCT-scaled image must be on both sides: 1.4.
    ///
    /// DCT scaling to 1/8 is an 8×8 box average; followed by a lanczos3 step of less than about 1.4× it is softer
    /// and aliases more than libvips' own result (measured against the libvips path: 32.8–34.2 dB PSNR on
    /// 4 of the 62 eligible inputs with no headroom — mate-dune, life-6mp, slow-noise, size-key-source; every
    /// input ≥ 35 dB from 1.4 on). libvips keeps 2× (its JPEG shrink-on-load stops at twice the target), so 1.4
    /// still decodes a 12 MP photo for a 360 px thumbnail at 1/8 where libvips uses 1/4.
    package static let headroom = 1.4

    /// The smallest decoded size (pixels, the orientation `box` is in) that keeps ``headroom`` for a resize to `box`:
    /// each side × 1.4, rounded up. The fast path's DCT scale and the libvips path's JPEG load shrink both cover it.
    static func covered(_ box: PixelSize) -> (width: Int, height: Int) {
        (Int((Double(box.width) * headroom).rounded(.up)), Int((Double(box.height) * headroom).rounded(.up)))
    }

    /// The fast path's thumbnail of `data` fitted exactly to `box` (displayed orientation), or `nil` when the
    /// image is not eligible (the caller then takes the libvips path). Call on a worker thread after the limits
    /// were checked.
    ///
    /// Data on which libjpeg warns (it ends early, or is corrupt) returns `nil` too: libvips then decides, from its
    /// own evidence, whether it decodes or is truncated (never a grey-filled image from here).
    /// - Throws: ``PinholeError/Code/decodingFailed`` with libvips' message when the resize fails.
    static func turboJPEGThumbnail(
        _ data: Data, header: VipsHeader, layout: ThumbnailOptions.Layout, shortcuts: ProgressiveShortcuts = .all
    ) throws -> PixelImage? {
        let box = (width: layout.resized.width, height: layout.resized.height)
        guard takesOnFastPath(layout), markersAllowFastPath(data) else { return nil }
        let decoder = try TurboJPEGDecoder()
        let scaled = data.withUnsafeBytes { bytes -> TurboJPEGDecoder.ScaledPixels? in
            guard let jpeg = decoder.header(bytes), jpeg.isYCbCrOrGrey else { return nil }
            let covered = (
                Int((Double(box.width) * headroom).rounded(.up)), Int((Double(box.height) * headroom).rounded(.up))
            )
            let storedBox = header.info.orientation >= 5 ? (covered.1, covered.0) : covered
            let factor = TurboJPEGDecoder.scalingFactor(width: jpeg.width, height: jpeg.height, covering: storedBox)
            let grey = jpeg.colourSpace == Int32(TJCS_GRAY.rawValue)
            if let denominator = scaleDenominator(of: factor),
                let stream = shortcuts.stream(bytes, scaleDenominator: denominator),
                let pixels = scanFilteredPixels(stream, bands: grey ? 1 : 3)
            {
                return pixels
            }
            return decoder.decode(bytes, header: jpeg, factor: factor, grey: grey)
        }
        guard let scaled else { return nil }
        return try resize(scaled, orientation: header.info.orientation, layout: layout)
    }

    /// libvips' `vips_thumbnail_image` on TurboJPEG's pixels (no copy in): lanczos3 to exactly `layout.resized`,
    /// then the EXIF rotation, then the layout's crop (the same `vips_smartcrop` as the libvips path), then the copy
    /// out as a ``PixelImage`` (grey stays `gray8`, colour is `rgb8`).
    static func resize(
        _ scaled: TurboJPEGDecoder.ScaledPixels, orientation: Int, layout: ThumbnailOptions.Layout
    ) throws -> PixelImage {
        let box = layout.resized
        let failure = { (message: String) in
            PinholeError(.decodingFailed, "cannot resize jpeg: \(message)", detectedType: "jpeg")
        }
        return try scaled.pixels.withUnsafeBytes { pixels in
            // `pixels` outlives every libvips image made from it: all of them are released in this scope.
            let thumbnail = try VipsImageHandle.make(failure: failure) { out in
                CPinholeVips_thumbnail_pixels(
                    pixels.baseAddress, pixels.count, Int32(scaled.width), Int32(scaled.height),
                    Int32(scaled.bands), Int32(orientation), Int32(box.width), Int32(box.height), out)
            }
            return try thumbnail.cropped(to: layout, failure: failure).pixelImage(failure: failure)
        }
    }
}
