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
///   taken as sRGB and kept exactly (no colour transform). A profile that does not fit the pixels (a grey
///   profile on RGB, RGB on grey, CMYK on RGB…) or does not parse is ignored, as browsers ignore it: the image is
///   then taken as untagged (CMYK through the fallback profile) and a diagnostic says so (``onDiagnostic``,
///   ``Vips/drainWarnings()``); libvips alone would apply a grey profile to RGB data and make a grey picture;
///   16-bit samples become 8-bit (v >> 8, within 1 of v / 257); gAMA chunks in PNG are ignored (as libvips,
///   Pillow and ImageMagick do);
/// - output: ``PixelImage/PixelFormat/rgba8`` (straight alpha) when the source has alpha,
///   ``PixelImage/PixelFormat/gray8`` for grey without alpha (``PixelImage/PixelFormat/rgb8`` when an embedded
///   grey ICC profile was applied), ``PixelImage/PixelFormat/rgb8`` otherwise;
/// - the first frame of an animation; ``DecodedImage/SourceInfo/frameCount`` reports how many there are;
/// - SVG is rasterised at its intrinsic size (or fitted to the box), when libvips has librsvg.
///
/// Truncation policy: data that ends early fails with ``PinholeError/Code/truncated`` (libvips
/// `fail_on=truncated`); a grey-filled partial image is never returned. Whether data ends early is the decoders'
/// own evidence for this decode, never the position of an end marker and never libvips' process-global error
/// text: the format's libvips loader asking for bytes past the end (JPEG, PNG, TIFF, read again through a source
/// of our own), giflib running out of bytes before the trailer (a GIF cut after a complete frame fails too),
/// libwebpdemux finding chunks longer than the data, libheif's `heif_suberror_End_of_data`, a BMP's declared file
/// size. Bytes after a complete image (padding, an upload tool's text, a motion photo's video) are ignored, as
/// the decoders ignore them; SVG is the exception, since XML forbids content after the root element. Corrupt but
/// complete data (for example "Corrupt JPEG data" warnings) decodes; the warnings go to ``Vips/drainWarnings()``.
///
/// Untrusted bytes (``DecodingOptions/untrustedFormats`` set, as an untrusted ``SourcePolicy`` does): the sniffed
/// format must be one of those formats and libvips' loader must be that format's own (`jpegload_buffer` for JPEG,
/// …; never ImageMagick), checked before any loader reads more than magic bytes, else
/// ``PinholeError/Code/unsupportedFormat`` says why; the decode then runs with libvips' untrusted operations
/// blocked (`vips_block_untrusted_set`, process-wide, so trusted decodes that need such a loader wait for their
/// turn: see `UntrustedLoaderGate`). Trusted decodes behave as before.
///
/// Stopping: a cancelled task stops its decode within a few KiB of input (JPEG, PNG, TIFF) or a strip of output,
/// and frees its thread; a decode that uses more than ``decodeTimeLimit`` of CPU time stops with
/// ``PinholeError/Code/decodingTimedOut`` (see `DecodeInterruption`).
///
/// JPEG fast path (``jpegFastPath``, on by default): a JPEG thumbnail that needs nothing but scaling — YCbCr or
/// grey, Huffman-coded 8-bit baseline or progressive, no ICC profile or an sRGB one, any EXIF orientation — is
/// decoded by libjpeg-turbo's TurboJPEG at the smallest DCT scale (1/8 … 1) that still covers the box, and
/// libvips finishes it with the kernel `vips_thumbnail` uses (lanczos3, exact fitted size, then the rotation).
/// Same size and the same look as the libvips path (PSNR ≥ 35 dB, tested), at about half the cost: libvips
/// itself stops its JPEG shrink-on-load at twice the target. CMYK/YCCK, RGB-coded and arithmetic-coded JPEGs,
/// wide-gamut or grey ICC profiles, full-size decodes and every other format take the libvips path; a JPEG
/// thumbnail among them is loaded there at the fast path's DCT scale, not `vips_thumbnail`'s, so the profile
/// import works on up to 4× fewer pixels (a 4 MP CMYK photo to 360 px: about 225 → 125 ms; the look stays within
/// the same PSNR bar; VipsDecoder+JPEGShrink.swift). The header
/// read and limit checks come first on both paths; data on which libjpeg warns (truncated or corrupt) leaves the
/// fast path for the libvips path, which decides. A progressive JPEG the fast path decodes at 1/8 scale is decoded
/// from its DC scans alone (``progressiveDCOnly``, on by default: the same pixels as the whole-file decode, 2–5×
/// less work); one it decodes at 1/4 without its last-bit AC refinement scans (``progressiveRefinementSkipping``,
/// on by default: an approximation, thumbnails ≥ 45 dB PSNR from the whole-file decode's, 1.4–2.4× less work;
/// VipsDecoder+ProgressiveRefinement.swift says how it was measured).
///
/// Decoding runs on `pool` (never on Swift's cooperative pool); cancellation is checked before and after, and stops
/// a running decode.
/// Safe from any isolation; values of this type are cheap to copy.
public struct VipsDecoder: ImageDecoding {
    /// The threads that run libvips.
    public let pool: WorkerThreadPool
    /// Whether plain JPEG thumbnails take the TurboJPEG fast path (see below); `true` by default.
    public let jpegFastPath: Bool
    /// The CPU time one decode may use on its thread before it is stopped with
    /// ``PinholeError/Code/decodingTimedOut``; 10 seconds by default (``defaultDecodeTimeLimit``). CPU time, not
    /// wall-clock time: a busy machine slows a decode down but never makes it fail.
    public let decodeTimeLimit: Duration

    /// Receives one-line diagnostics about decisions the decoder made for one image (for example an embedded
    /// ICC profile it ignored), on the decoding thread; `nil` by default. They also go to ``Vips/drainWarnings()``.
    public let onDiagnostic: (@Sendable (String) -> Void)?

    /// For tests, not API: receives each decode's stop switch as its thread starts it (to watch its progress).
    package var onDecodeStart: (@Sendable (DecodeInterruption) -> Void)?

    /// 10 seconds: the default ``decodeTimeLimit``, about 50 times the slowest decode of the 298-megapixel corpus.
    public static let defaultDecodeTimeLimit: Duration = .seconds(10)

    /// Whether the fast path decodes progressive JPEGs at 1/8 scale from their DC scans alone (see below);
    /// `true` by default.
    public let progressiveDCOnly: Bool

    /// Whether the fast path decodes progressive JPEGs at 1/4 scale without their last-bit AC refinement scans
    /// (see below); `true` by default.
    public let progressiveRefinementSkipping: Bool

    /// The two switches above, as the decode paths take them.
    var shortcuts: ProgressiveShortcuts {
        ProgressiveShortcuts(dcOnly: progressiveDCOnly, skipsLastBitRefinements: progressiveRefinementSkipping)
    }

    /// - Parameters:
    ///   - pool: the threads that run libvips and TurboJPEG; ``WorkerThreadPool/cpu`` by default.
    ///   - jpegFastPath: `true` (the default) sends JPEG thumbnails that need nothing but scaling through
    ///     TurboJPEG, and loads the other JPEG thumbnails at its DCT scale; `false` forces plain
    ///     `vips_thumbnail` for every image (for comparisons, or to rule the fast path out when looking into a
    ///     picture).
    ///   - decodeTimeLimit: the CPU time one decode may use on its thread (time queued or waiting does not
    ///     count); 10 seconds by default.
    ///   - onDiagnostic: receives one-line diagnostics on the decoding thread (must not block); `nil` by default.
    ///   - progressiveDCOnly: `true` (the default) lets the fast path skip the AC scans of a progressive JPEG
    ///     it decodes at 1/8 scale (the same pixels, a fraction of the work); `false` decodes every scan (for
    ///     comparisons).
    ///   - progressiveRefinementSkipping: `true` (the default) lets the fast path leave out the last-bit AC
    ///     refinement scans of a progressive JPEG it decodes at 1/4 scale (thumbnails within 45 dB PSNR of the
    ///     whole-file decode's, about half the entropy decoding); `false` decodes every scan there (the same
    ///     pixels as TurboJPEG's decode).
    public init(
        pool: WorkerThreadPool = .cpu, jpegFastPath: Bool = true,
        decodeTimeLimit: Duration = VipsDecoder.defaultDecodeTimeLimit,
        onDiagnostic: (@Sendable (String) -> Void)? = nil, progressiveDCOnly: Bool = true,
        progressiveRefinementSkipping: Bool = true
    ) {
        self.pool = pool
        self.jpegFastPath = jpegFastPath
        self.decodeTimeLimit = decodeTimeLimit
        self.onDiagnostic = onDiagnostic
        self.progressiveDCOnly = progressiveDCOnly
        self.progressiveRefinementSkipping = progressiveRefinementSkipping
    }

    /// Decodes `data` into a thumbnail (or a full-size image) as `options` say.
    ///
    /// - Returns: 8-bit sRGB pixels oriented for display, and the source's header facts.
    /// - Throws: ``PinholeError`` with ``PinholeError/Code/emptyData``, ``PinholeError/Code/notAnImage``
    ///   (``PinholeError/detectedType`` says what it looks like), ``PinholeError/Code/unsupportedFormat``,
    ///   ``PinholeError/Code/tooManyPixels``, ``PinholeError/Code/tooManyFrames``,
    ///   ``PinholeError/Code/truncated``, ``PinholeError/Code/decodingFailed`` (with libvips' message) or
    ///   ``PinholeError/Code/decodingTimedOut``; `CancellationError` when the task is cancelled (a running libvips
    ///   decode is then stopped within about one tile of work, and its thread freed).
    public func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage {
        let format = try Self.sniffedFormat(data)
        try Task.checkCancellation()
        let interruption = try DecodeInterruption(timeLimit: decodeTimeLimit)
        return try await withTaskCancellationHandler {
            let decoded = try await pool.run { [jpegFastPath, shortcuts, onDiagnostic, onDecodeStart] () throws -> DecodedImage in
                interruption.startTimeLimit()
                onDecodeStart?(interruption)
                return try Self.decodeUnderPolicy(
                    data, format: format, options: options, jpegFastPath: jpegFastPath, shortcuts: shortcuts,
                    interruption: interruption, onDiagnostic: onDiagnostic)
            }
            try Task.checkCancellation()
            return decoded
        } onCancel: {
            interruption.cancel()
        }
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
            return try Vips.capturingWarnings {
                try Self.withLoaderPolicy(data, format: format, untrustedFormats: nil, interruption: nil) {
                    try Self.readHeader(data, format: format).info
                }
            }
        }
        try Task.checkCancellation()
        return info
    }

    /// The whole decode under the source's policy (``withLoaderPolicy(_:format:untrustedFormats:interruption:_:)``),
    /// synchronous; runs on a worker thread. A decode that `interruption` stopped reports why it stopped, whatever
    /// libvips made of being stopped.
    static func decodeUnderPolicy(
        _ data: Data, format: ImageFormat, options: DecodingOptions, jpegFastPath: Bool,
        shortcuts: ProgressiveShortcuts = .all, interruption: DecodeInterruption?, onDiagnostic: (@Sendable (String) -> Void)? = nil
    ) throws -> DecodedImage {
        do {
            try Vips.ensureInitialized()
            return try Vips.capturingWarnings {
                try withLoaderPolicy(
                    data, format: format, untrustedFormats: options.untrustedFormats, interruption: interruption
                ) {
                    try decodeNow(
                        data, format: format, options: options, jpegFastPath: jpegFastPath, shortcuts: shortcuts,
                        interruption: interruption, onDiagnostic: onDiagnostic)
                }
            }
        } catch {
            try interruption?.throwIfStopped()
            throw error
        }
    }

    /// The whole decode, synchronous; runs on a worker thread.
    static func decodeNow(
        _ data: Data, format: ImageFormat, options: DecodingOptions, jpegFastPath: Bool,
        shortcuts: ProgressiveShortcuts = .all, interruption: DecodeInterruption? = nil, onDiagnostic: (@Sendable (String) -> Void)? = nil
    ) throws -> DecodedImage {
        let header = try readHeader(data, format: format, interruption: interruption)
        try header.checkLimits(options)
        try interruption?.throwIfStopped()
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
            let image = try turboJPEGThumbnail(data, header: header, layout: layout, shortcuts: shortcuts)
        {
            return DecodedImage(image: image, info: header.info)
        }
        try interruption?.throwIfStopped()
        // libnsgif returns the frames it has without complaint: giflib says whether the GIF is whole (a preview
        // that allows truncated data takes the frames there are).
        if format == .gif && !options.allowsTruncatedData { try checkGIFIsComplete(data) }
        if let ignoredProfile = header.ignoredProfile {
            let line = "\(format.name): \(ignoredProfile)"
            Vips.note(line)
            onDiagnostic?(line)
        }
        let jpegShrink = libvipsJPEGShrink(
            format: format, options: options, header: header, layout: layout, jpegFastPath: jpegFastPath)
        let image = try thumbnail(
            data, format: format, header: header, layout: layout, failOn: options.failOn, interruption: interruption,
            jpegShrink: jpegShrink)
        return DecodedImage(image: image, info: header.info)
    }

    /// One `vips_thumbnail_buffer` run to `layout.resized` (or, for an embedded profile that does not fit, the same
    /// work without it), cropped to `layout.output` when the layout says so, copied out as 8-bit sRGB;
    /// `interruption` stops the work at the next read of the input or the next tile. `withoutProfiles` leaves every
    /// ICC transform out (for the stage profile's measure of what they cost). A `jpegShrink` above 1 loads a JPEG at
    /// that DCT scale instead of the one `vips_thumbnail` picks (VipsDecoder+JPEGShrink.swift).
    static func thumbnail(
        _ data: Data, format: ImageFormat, header: VipsHeader, layout: ThumbnailOptions.Layout,
        failOn: String?, interruption: DecodeInterruption?, withoutProfiles: Bool = false, jpegShrink: Int = 1
    ) throws -> PixelImage {
        let box = layout.resized
        let failure = { (message: String) in
            decodingError(message, format: format, data: data, interruption: interruption)
        }
        return try data.withUnsafeBytes { bytes in
            // `bytes` must outlive every libvips image made from it: all of them are released in this scope.
            let thumbnail = try VipsImageHandle.make(failure: failure) { out in
                guard header.ignoredProfile == nil, !withoutProfiles else {
                    return CPinholeVips_thumbnail_ignoring_profile(
                        bytes.baseAddress, bytes.count, Int32(jpegShrink), Int32(box.width), Int32(box.height),
                        Int32(VIPS_SIZE_FORCE.rawValue), header.appliesOrientation ? 0 : 1, failOn, out)
                }
                // Through a source of ours when there is a decode to stop, or a JPEG shrink of ours to apply.
                if header.streamsInput, interruption != nil || jpegShrink > 1 {
                    return CPinholeVips_thumbnail_interruptible(
                        bytes.baseAddress, bytes.count, Int32(jpegShrink), Int32(box.width), Int32(box.height),
                        Int32(VIPS_SIZE_FORCE.rawValue), header.appliesOrientation ? 0 : 1,
                        header.colourProfiles.import, header.colourProfiles.export, failOn,
                        interruption?.pointer, out)
                }
                return CPinholeVips_thumbnail(
                    bytes.baseAddress, bytes.count, Int32(box.width), Int32(box.height),
                    Int32(VIPS_SIZE_FORCE.rawValue), header.appliesOrientation ? 0 : 1,
                    header.colourProfiles.import, header.colourProfiles.export, failOn, out)
            }
            return try thumbnail.cropped(to: layout, failure: failure).pixelImage(
                failure: failure, interruption: interruption)
        }
    }
}
