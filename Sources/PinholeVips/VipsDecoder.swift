import CPinholeVips
import CVips
public import Foundation
public import Pinhole

/// Decodes images with libvips: sniffing, header-checked limits, shrink-on-load thumbnails, EXIF orientation,
/// conversion to 8-bit sRGB.
///
/// What you get:
/// - the format is taken from the magic bytes (``ImageFormat/sniff(_:)``), never from a name or header;
/// - the header is read first and ``DecodingOptions/maxPixelCount`` (one frame: width × height) and
///   ``DecodingOptions/maxFrameCount`` are checked before any pixel is decoded;
/// - a thumbnail is made by shrink-on-load (`vips_thumbnail_buffer`) into the ``ThumbnailOptions`` box of the
///   *displayed* image with its content mode (fit, fill, or fill cropped at the centre or the most interesting
///   region by `vips_smartcrop`), never enlarged unless ``ThumbnailOptions/allowsUpscaling``; its size is exactly
///   ``ThumbnailOptions/fittedSize(width:height:)`` of the displayed size;
/// - ``DecodingOptions/allowsTruncatedData`` (progressive previews) decodes what data that ends early holds, on
///   the libvips path, instead of failing;
///   `thumbnail == nil` decodes at full size (still oriented, sRGB, 8-bit);
/// - EXIF orientation (1…8) is applied to JPEG, PNG, WebP and TIFF. HEIF/AVIF are shown as libheif gives
///   them (irot/imir applied); an EXIF Orientation tag inside HEIF is informative only and is *not* applied;
/// - colour becomes 8-bit sRGB: embedded ICC profiles (Display P3, Adobe RGB, CMYK…) are converted through
///   the profile, CMYK without a profile uses libvips' fallback CMYK profile, untagged RGB and grey are
///   taken as sRGB and kept exactly (no colour transform); grey whose embedded profile libvips rejects (an
///   RGB-class profile on grey data) is decoded again without colour management rather than failing;
///   16-bit samples become 8-bit (v >> 8, within 1 of v / 257); gAMA chunks in PNG are ignored (as libvips,
///   Pillow and ImageMagick do);
/// - output: ``PixelImage/PixelFormat/rgba8`` (straight alpha) when the source has alpha,
///   ``PixelImage/PixelFormat/gray8`` for grey without alpha (``PixelImage/PixelFormat/rgb8`` when an embedded
///   grey ICC profile was applied), ``PixelImage/PixelFormat/rgb8`` otherwise;
/// - the first frame of an animation; ``DecodedImage/SourceInfo/frameCount`` reports how many there are;
/// - SVG is rasterised at its intrinsic size (or fitted to the box), when libvips has librsvg.
///
/// Truncation policy: data that ends early fails with ``PinholeError/Code/truncated`` (libvips
/// `fail_on=truncated`); a grey-filled partial image is never returned. A GIF without its trailer byte fails
/// too, even when its first frame is complete. Failures are classified as truncated when the container is
/// incomplete (JPEG without EOI, PNG without IEND, WebP, BMP shorter than their declared size, TIFF whose first
/// directory lies past the end) or, for TIFF, HEIF and SVG, when libvips' message says so. Corrupt but complete
/// data (for example "Corrupt JPEG data" warnings) decodes; the warnings go to ``Vips/drainWarnings()``.
///
/// JPEG fast path (``jpegFastPath``, on by default): a JPEG thumbnail that needs nothing but scaling — YCbCr or
/// grey, Huffman-coded 8-bit baseline or progressive, no ICC profile or an sRGB one, any EXIF orientation — is
/// decoded by libjpeg-turbo's TurboJPEG at the smallest DCT scale (1/8 … 1) that still covers the box, and
/// libvips finishes it with the kernel `vips_thumbnail` uses (lanczos3, exact fitted size, then the rotation).
/// Same size and the same look as the libvips path (PSNR ≥ 35 dB, tested), at about half the cost: libvips
/// itself stops its JPEG shrink-on-load at twice the target. CMYK/YCCK, RGB-coded and arithmetic-coded JPEGs,
/// wide-gamut or grey ICC profiles, full-size decodes and every other format take the libvips path. The header
/// read and limit checks come first on both paths; truncated data fails with ``PinholeError/Code/truncated``
/// on both.
///
/// Decoding runs on `pool` (never on Swift's cooperative pool); cancellation is checked before and after.
/// Safe from any isolation; values of this type are cheap to copy.
public struct VipsDecoder: ImageDecoding {
    /// The threads that run libvips.
    public let pool: WorkerThreadPool
    /// Whether plain JPEG thumbnails take the TurboJPEG fast path (see below); `true` by default.
    public let jpegFastPath: Bool

    /// - Parameters:
    ///   - pool: the threads that run libvips and TurboJPEG; ``WorkerThreadPool/cpu`` by default.
    ///   - jpegFastPath: `true` (the default) sends JPEG thumbnails that need nothing but scaling through
    ///     TurboJPEG; `false` forces the libvips path for every image (for comparisons, or to rule the fast
    ///     path out when looking into a picture).
    public init(pool: WorkerThreadPool = .cpu, jpegFastPath: Bool = true) {
        self.pool = pool
        self.jpegFastPath = jpegFastPath
    }

    /// Decodes `data` into a thumbnail (or a full-size image) as `options` say.
    ///
    /// - Returns: 8-bit sRGB pixels oriented for display, and the source's header facts.
    /// - Throws: ``PinholeError`` with ``PinholeError/Code/emptyData``, ``PinholeError/Code/notAnImage``
    ///   (``PinholeError/detectedType`` says what it looks like), ``PinholeError/Code/unsupportedFormat``,
    ///   ``PinholeError/Code/tooManyPixels``, ``PinholeError/Code/tooManyFrames``,
    ///   ``PinholeError/Code/truncated`` or ``PinholeError/Code/decodingFailed`` (with libvips' message);
    ///   `CancellationError` when the task is cancelled.
    public func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage {
        let format = try Self.sniffedFormat(data)
        try Task.checkCancellation()
        let decoded = try await pool.run { [jpegFastPath] () throws -> DecodedImage in
            try Self.decodeNow(data, format: format, options: options, jpegFastPath: jpegFastPath)
        }
        try Task.checkCancellation()
        return decoded
    }

    /// Reads the header only (no pixel is decoded).
    ///
    /// - Returns: the format, the displayed width and height in pixels (after EXIF orientation), the
    ///   orientation that a decode applies (1…8) and the frame count.
    /// - Throws: the same ``PinholeError`` codes as ``decode(_:options:)``, except the limit codes.
    public func readInfo(_ data: Data) async throws -> DecodedImage.SourceInfo {
        let format = try Self.sniffedFormat(data)
        try Task.checkCancellation()
        let info = try await pool.run { () throws -> DecodedImage.SourceInfo in
            try Vips.ensureInitialized()
            return try Self.readHeader(data, format: format).info
        }
        try Task.checkCancellation()
        return info
    }

    /// The whole decode, synchronous; runs on a worker thread.
    static func decodeNow(
        _ data: Data, format: ImageFormat, options: DecodingOptions, jpegFastPath: Bool
    ) throws -> DecodedImage {
        try Vips.ensureInitialized()
        let header = try readHeader(data, format: format)
        try header.checkLimits(options)
        // libnsgif returns the frames it has without complaint; a GIF without its trailer is cut short.
        if format == .gif && !options.allowsTruncatedData && containerLooksTruncated(data, format: format) {
            throw PinholeError(.truncated, "gif data ends early (no trailer byte)", detectedType: format.name)
        }
        // The exact size is computed here and forced on libvips: its own rounding of the short side differs
        // from ThumbnailOptions.layout by a pixel for some sizes. Aspect is kept to within that rounding.
        // A fill's crop is cut out of the resized image afterwards (VipsDecoder+ContentMode.swift).
        let layout = Self.layout(options.thumbnail, header: header)
        let box = (layout.resized.width, layout.resized.height)
        // An upscaled thumbnail obeys the pixel limit too (and libvips' largest side, VIPS_MAX_COORD).
        let (outputPixels, overflow) = box.0.multipliedReportingOverflow(by: box.1)
        guard !overflow, outputPixels <= options.maxPixelCount, max(box.0, box.1) <= 10_000_000 else {
            throw PinholeError(
                .tooManyPixels, "a \(box.0)×\(box.1) result is over the limit of \(options.maxPixelCount) pixels")
        }
        if jpegFastPath, format == .jpeg, options.thumbnail != nil, !options.allowsTruncatedData,
            let image = try turboJPEGThumbnail(data, header: header, layout: layout)
        {
            return DecodedImage(image: image, info: header.info)
        }
        let image: PixelImage
        do {
            image = try thumbnail(
                data, format: format, header: header, layout: layout,
                profiles: header.colourProfiles, failOn: options.failOn)
        } catch let error as PinholeError where error.code == .decodingFailed && header.retriesWithoutProfile {
            image = try thumbnail(
                data, format: format, header: header, layout: layout,
                profiles: (nil, nil), failOn: options.failOn)
        }
        return DecodedImage(image: image, info: header.info)
    }

    /// One `vips_thumbnail_buffer` run to `layout.resized` with the given colour profiles, cropped to
    /// `layout.output` when the layout says so, copied out as 8-bit sRGB.
    private static func thumbnail(
        _ data: Data, format: ImageFormat, header: VipsHeader, layout: ThumbnailOptions.Layout,
        profiles: (import: String?, export: String?), failOn: String?
    ) throws -> PixelImage {
        let box = layout.resized
        let failure = { (message: String) in decodingError(message, format: format, data: data) }
        return try data.withUnsafeBytes { bytes in
            // `bytes` must outlive every libvips image made from it: all of them are released in this scope.
            let thumbnail = try VipsImageHandle.make(failure: failure) { out in
                CPinholeVips_thumbnail(
                    bytes.baseAddress, bytes.count, Int32(box.width), Int32(box.height),
                    Int32(VIPS_SIZE_FORCE.rawValue), header.appliesOrientation ? 0 : 1,
                    profiles.import, profiles.export, failOn, out)
            }
            return try thumbnail.cropped(to: layout, failure: failure).pixelImage(failure: failure)
        }
    }
}
