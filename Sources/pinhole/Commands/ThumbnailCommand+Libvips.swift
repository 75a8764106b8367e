import Foundation
import Pinhole

/// The libvips codecs, once branch `vips` lands (temporary: every decode fails as unsupported).
enum LibvipsCodecs {
    static let version = "unknown"
}

extension ThumbnailCommand.Codecs {
    /// The libvips decoder and encoder running on a pool of `threadCount` threads.
    static func libvips(threadCount: Int) -> ThumbnailCommand.Codecs {
        struct Unavailable: ImageDecoding, ImageEncoding {
            func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage {
                throw PinholeError(.unsupportedFormat, "no decoder in this build")
            }
            func encode(_ image: PixelImage, options: EncodingOptions) async throws -> Data {
                throw PinholeError(.unsupportedFormat, "no encoder in this build")
            }
        }
        return ThumbnailCommand.Codecs(decoder: Unavailable(), encoder: Unavailable()) { _, _ in
            throw PinholeError(.unsupportedFormat, "no contact sheet in this build")
        }
    }
}
