import CPinholeVips
import CVips
public import Foundation
public import Pinhole

/// Decodes images with libvips into 8-bit sRGB pixels oriented for display: a shrink-on-load thumbnail, or the
/// full size when `thumbnail == nil`.
///
/// - Input: the format is sniffed from the magic bytes (``ImageFormat/sniff(_:)``); ``DecodingOptions/maxPixelCount``
///   (one frame: width × height) and ``DecodingOptions/maxFrameCount`` are checked on the header, before any pixel
///   is decoded; ``DecodingOptions/untrustedFormats`` restricts the format and libvips' loader
///   (VipsDecoder+Untrusted.swift). The first frame of an animation; SVG when libvips has librsvg.
/// - Output: exactly ``ThumbnailOptions/fittedSize(width:height:)`` of the displayed size (EXIF orientation 1…8
///   applied to JPEG, PNG, WebP and TIFF; HEIF/AVIF as libheif gives them), in the ``ThumbnailOptions`` content
///   mode (VipsDecoder+ContentMode.swift); ``PixelImage/PixelFormat/rgba8`` (straight alpha) with alpha,
///   ``PixelImage/PixelFormat/gray8`` for grey, ``PixelImage/PixelFormat/rgb8`` otherwise (and for grey with a grey
///   ICC profile applied). Embedded ICC profiles are applied; untagged RGB and grey are taken as sRGB; a profile
///   that does not fit the pixels is ignored with a diagnostic (``onDiagnostic``).
/// - Errors: see ``decode(_:options:)``. Data that ends early is ``PinholeError/Code/truncated`` unless
///   ``DecodingOptions/allowsTruncatedData``, judged by the decoders' own evidence (VipsDecoder+Truncation.swift).
/// - Stopping: cancellation stops a running decode; so does ``decodeTimeLimit`` of CPU time
///   (``PinholeError/Code/decodingTimedOut``; DecodeInterruption.swift).
/// - JPEG thumbnails that need nothing but scaling take TurboJPEG (``jpegFastPath``, VipsDecoder+TurboJPEG.swift),
///   with the progressive shortcuts ``progressiveDCOnly`` and ``progressiveRefinementSkipping``; other JPEG
///   thumbnails load at its DCT scale (VipsDecoder+JPEGShrink.swift). Figures: BENCHMARKS.md.
///
/// Decoding runs on ``pool``, never on Swift's cooperative pool. Safe from any isolation; cheap to copy.
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
    ///     refinement scans of a progressive JPEG it decodes at 1/4 scale (an approximation held to 45 dB PSNR
    ///     against the whole-file decode's thumbnail); `false` decodes every scan there (the same pixels as
    ///     TurboJPEG's decode).
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
            let decoded = try await pool.run {
                [jpegFastPath, shortcuts, onDiagnostic, onDecodeStart] () throws -> DecodedImage in
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
        shortcuts: ProgressiveShortcuts = .all, interruption: DecodeInterruption?,
        onDiagnostic: (@Sendable (String) -> Void)? = nil
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
        shortcuts: ProgressiveShortcuts = .all, interruption: DecodeInterruption? = nil,
        onDiagnostic: (@Sendable (String) -> Void)? = nil
    ) throws -> DecodedImage {
        let header = try readHeader(data, format: format, interruption: interruption)
        try header.checkLimits(options)
        try interruption?.throwIfStopped()
        // The exact size is computed here and forced on libvips: its own rounding of the short side differs
        // from ThumbnailOptions.layout by a pixel for some sizes. Aspect is kept to within that rounding.
        // A fill's crop is cut out of the resized image afterwards (VipsDecoder+ContentMode.swift).
        let layout = Self.layout(options.thumbnail, header: header)
        try header.checkResultLimits(layout, options: options)
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
