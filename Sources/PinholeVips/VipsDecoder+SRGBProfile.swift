import CPinholeVips
import Foundation

extension VipsDecoder {
    /// Whether the image in `data` embeds an RGB ICC profile that describes itself as sRGB (for example
    /// "sRGB IEC61966-2.1"), read from libvips' header. Such an image is already sRGB: converting it through its
    /// profile to sRGB changes no pixel by more than lcms' rounding, and costs an ICC transform of every pixel of
    /// the thumbnail (12–14 ms of a 30–34 ms 512 px PNG thumbnail, `pinhole bench thumbnail --stages`), so the
    /// decode takes it as sRGB, as the JPEG fast path already does. Call on a worker thread after initialisation.
    static func embedsSRGBProfile(_ data: Data) -> Bool {
        var length = 0
        let profile = data.withUnsafeBytes { CPinholeVips_icc_profile($0.baseAddress, $0.count, &length) }
        defer { CPinholeVips_free(profile) }
        guard let profile, length > 0 else { return false }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: profile, count: length))
        guard let description = ICCProfileDescription(bytes), description.colourSpace == "RGB " else { return false }
        return description.text.contains("sRGB")
    }
}
