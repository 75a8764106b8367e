import CPinholeVips
import CVips
import Foundation
import Pinhole

/// What libvips read from a header, and the decisions that follow from it.
struct VipsHeader {
    /// Facts reported to callers (displayed size, orientation, frames).
    var info: DecodedImage.SourceInfo
    /// Stored width × height of one frame, in pixels.
    var framePixelCount: Int
    /// Whether the stored pixels have an alpha band (the resize premultiplies them, in floats).
    var hasAlpha = false
    /// Bytes of one stored pixel as libvips loads it: bands × bytes a band (3 for 8-bit RGB, 8 for 16-bit RGBA).
    var storedPixelBytes = 4
    /// An interlaced (Adam7) PNG, which libvips cannot stream: it loads the whole frame first.
    var isInterlaced = false
    /// Whether the decode applies EXIF orientation (not for HEIF/AVIF: see ``VipsDecoder``).
    var appliesOrientation: Bool
    /// The profiles to give `vips_thumbnail`: export to sRGB only when there is something to convert from (an
    /// embedded profile that fits, or CMYK, which libvips converts through its fallback CMYK profile).
    var colourProfiles: (import: String?, export: String?)
    /// Why the embedded ICC profile is ignored, or `nil` when it fits or there is none. A profile that does not
    /// parse, or is for another colour space than the pixels (grey on RGB, RGB on grey, CMYK on RGB…), is dropped
    /// as browsers drop it: the image is then taken as sRGB (or grey) as stored, CMYK through libvips' fallback
    /// profile. libvips itself would apply a grey profile to RGB data (a grey picture of the red channel).
    var ignoredProfile: String?
    /// Whether libvips reads this image with a loader that streams its input (JPEG, PNG, TIFF): the decode then
    /// reads through a source of its own, which stops at its next read when interrupted.
    var streamsInput: Bool

    /// The most frames libvips counts in a GIF (measured with libvips 8.14: a GIF of 10,000 frames reads as 4,097).
    static let gifFrameCountCeiling = 4097

    /// Throws when the header declares more than `options` allow.
    func checkLimits(_ options: DecodingOptions) throws {
        if info.frameCount > options.maxFrameCount {
            // libvips' GIF loader stops counting frames past 4,096: 4,097 means that many or more.
            let counted =
                info.format == .gif && info.frameCount >= Self.gifFrameCountCeiling
                ? "at least \(info.frameCount)" : "\(info.frameCount)"
            throw PinholeError(.tooManyFrames, "\(counted) frames declared; the limit is \(options.maxFrameCount)")
        }
        if framePixelCount > options.maxPixelCount {
            throw PinholeError(
                .tooManyPixels,
                "\(info.width)×\(info.height) = \(framePixelCount) pixels declared; "
                    + "the limit is \(options.maxPixelCount)"
            )
        }
    }

    /// Throws when `layout`'s resized image (an upscale too) is over `options`' pixel limit or libvips' largest
    /// side (`VIPS_MAX_COORD`).
    func checkResultLimits(_ layout: ThumbnailOptions.Layout, options: DecodingOptions) throws {
        let box = layout.resized
        let (outputPixels, overflow) = box.width.multipliedReportingOverflow(by: box.height)
        guard !overflow, outputPixels <= options.maxPixelCount, max(box.width, box.height) <= 10_000_000 else {
            throw PinholeError(
                .tooManyPixels,
                "a \(box.width)×\(box.height) result is over the limit of \(options.maxPixelCount) pixels")
        }
    }

    /// The `scale` of WebP's shrink on load for `layout`, as `vips_thumbnail` picks it (libvips 8.14
    /// `thumbnail.c`): the larger of the two axes' scales, never above 1.
    func webPLoadScale(for layout: ThumbnailOptions.Layout) -> Double {
        let shrink = min(
            Double(info.width) / Double(max(1, layout.resized.width)),
            Double(info.height) / Double(max(1, layout.resized.height)))
        return 1 / max(1, shrink)
    }
}

extension VipsDecoder {
    /// The sniffed image format, or the error for data that is not a decodable image.
    static func sniffedFormat(_ data: Data) throws -> ImageFormat {
        let content = ImageFormat.sniff(data)
        switch content {
        case .image(let format):
            return format
        case .notAnImage(let kind) where kind.hasPrefix("unknown bytes"):
            throw PinholeError(.unsupportedFormat, "unsupported image format (\(kind))", detectedType: kind)
        default:
            throw PinholeError.forSniffed(content)
                ?? PinholeError(.decodingFailed, "unexpected sniff result \(content)")
        }
    }

    /// Reads the header with libvips (no pixel is decoded). Call on a worker thread after initialisation.
    static func readHeader(
        _ data: Data, format: ImageFormat, interruption: DecodeInterruption? = nil
    ) throws -> VipsHeader {
        var raw = CPinholeVips_Header()
        let status = data.withUnsafeBytes { CPinholeVips_read_header($0.baseAddress, $0.count, &raw) }
        guard status == 0 else {
            let message = Vips.takeErrorMessage(ownThreadOnly: true)
            let loader = withUnsafeBytes(of: raw.loader) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if loader.isEmpty {
                // No loader claims data that ends early in a format's header (a TIFF cut before its directory).
                if truncationEvidence(data, format: format, interruption: interruption) == .endsEarly {
                    throw PinholeError(
                        .truncated, "\(format.name) data ends early (\(message))", detectedType: format.name)
                }
                throw PinholeError(
                    .unsupportedFormat,
                    "this libvips (\(Vips.version)) has no loader for \(format.displayName): \(message)",
                    detectedType: format.name)
            }
            throw decodingError(message, format: format, data: data, interruption: interruption)
        }
        let isHEIF = format == .heif || format == .avif
        let orientation = isHEIF ? 1 : Int(min(8, max(1, raw.orientation)))
        let swapsSides = orientation >= 5
        let width = Int(raw.width)
        let height = Int(raw.height)
        let info = DecodedImage.SourceInfo(
            format: format,
            width: swapsSides ? height : width,
            height: swapsSides ? width : height,
            orientation: orientation,
            frameCount: max(1, Int(raw.pages)))
        let isCMYK = raw.interpretation == Int32(VIPS_INTERPRETATION_CMYK.rawValue)
        let ignoredProfile = Self.profileProblem(raw)
        let converts =
            (raw.hasICC != 0 && ignoredProfile == nil && !(raw.bands >= 3 && embedsSRGBProfile(data))) || isCMYK
        return VipsHeader(
            info: info,
            framePixelCount: width * height,
            hasAlpha: raw.hasAlpha != 0,
            storedPixelBytes: max(1, Int(raw.bands)) * max(1, Int(raw.sampleBytes)),
            isInterlaced: raw.interlaced != 0,
            appliesOrientation: !isHEIF,
            colourProfiles: (import: nil, export: converts ? "srgb" : nil),
            ignoredProfile: ignoredProfile,
            streamsInput: ["VipsForeignLoadJpegBuffer", "VipsForeignLoadPngBuffer", "VipsForeignLoadTiffBuffer"]
                .contains(withUnsafeBytes(of: raw.loader) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }))
    }

    /// Why the header's embedded ICC profile must be ignored (`CPinholeVips_profile_fit`), or `nil` when it fits.
    private static func profileProblem(_ raw: CPinholeVips_Header) -> String? {
        let space = withUnsafeBytes(of: raw.iccSpace) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
        let isCMYK = raw.interpretation == Int32(VIPS_INTERPRETATION_CMYK.rawValue)
        let pixels = isCMYK ? "CMYK" : raw.bands <= 2 ? "grey" : "RGB"
        switch Int(raw.iccFit) {
        case Int(CPinholeVips_profile_broken):
            return "ignored an embedded ICC profile\(space.isEmpty ? "" : " (\(space))") that does not parse or "
                + "cannot be used with \(pixels) data"
        case Int(CPinholeVips_profile_mismatch):
            return "ignored an embedded \(space) ICC profile on \(pixels) data"
        default:
            return nil
        }
    }
}
