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
    /// Whether the decode applies EXIF orientation (not for HEIF/AVIF: see ``VipsDecoder``).
    var appliesOrientation: Bool
    /// The profiles to give `vips_thumbnail`: export to sRGB only when there is something to convert from.
    var colourProfiles: (import: String?, export: String?)
    /// Grey (1 or 2 bands) with an embedded profile: if libvips rejects the profile (an RGB-class profile on grey
    /// data, LIBVIPS-NOTES item 5), the decode is retried without colour management.
    var retriesWithoutProfile: Bool

    /// Throws when the header declares more than `options` allow.
    func checkLimits(_ options: DecodingOptions) throws {
        if info.frameCount > options.maxFrameCount {
            throw PinholeError(
                .tooManyFrames,
                "\(info.frameCount) frames declared; the limit is \(options.maxFrameCount)")
        }
        if framePixelCount > options.maxPixelCount {
            throw PinholeError(
                .tooManyPixels,
                "\(info.width)×\(info.height) = \(framePixelCount) pixels declared; "
                    + "the limit is \(options.maxPixelCount)"
            )
        }
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
    static func readHeader(_ data: Data, format: ImageFormat) throws -> VipsHeader {
        var raw = CPinholeVips_Header()
        let status = data.withUnsafeBytes { CPinholeVips_read_header($0.baseAddress, $0.count, &raw) }
        guard status == 0 else {
            let message = Vips.takeErrorMessage()
            let loader = withUnsafeBytes(of: raw.loader) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if loader.isEmpty {
                throw PinholeError(
                    .unsupportedFormat,
                    "this libvips (\(Vips.version)) has no loader for \(format.name): \(message)",
                    detectedType: format.name)
            }
            throw decodingError(message, format: format, data: data)
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
        let converts = (raw.hasICC != 0 && !(raw.bands >= 3 && embedsSRGBProfile(data))) || isCMYK
        return VipsHeader(
            info: info,
            framePixelCount: width * height,
            appliesOrientation: !isHEIF,
            colourProfiles: (import: nil, export: converts ? "srgb" : nil),
            retriesWithoutProfile: raw.hasICC != 0 && raw.bands <= 2)
    }

    /// Maps a libvips failure to ``PinholeError/Code/truncated`` when the container is incomplete
    /// (``containerLooksTruncated(_:format:)``) or, for formats whose container is not checked (TIFF, HEIF,
    /// BMP, SVG), when libvips' words say the data ended early,
    /// else ``PinholeError/Code/decodingFailed``; the message keeps libvips' own words.
    static func decodingError(_ message: String, format: ImageFormat, data: Data) -> PinholeError {
        if containerLooksTruncated(data, format: format) {
            return PinholeError(.truncated, "\(format.name) data ends early (\(message))", detectedType: format.name)
        }
        // Where the container was checked, trust it: the message may be another decode's (global buffer), and
        // libpng says "read error" for corrupt chunks too.
        guard !containerIsCheckable(format) else {
            return PinholeError(.decodingFailed, "cannot decode \(format.name): \(message)", detectedType: format.name)
        }
        let lower = message.lowercased()
        let truncationWords = [
            "premature end", "truncated", "unexpected end", "end of file", "not enough data", "eof",
            "read error", "out of data", "incomplete",
        ]
        if truncationWords.contains(where: lower.contains) {
            return PinholeError(.truncated, "\(format.name) data ends early: \(message)", detectedType: format.name)
        }
        return PinholeError(.decodingFailed, "cannot decode \(format.name): \(message)", detectedType: format.name)
    }
}
