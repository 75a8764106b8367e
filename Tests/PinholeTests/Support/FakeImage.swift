import Foundation
import Pinhole
import Synchronization

/// Fake encoded images: a PNG signature followed by the source URL, so bodies sniff as images and a decoder can
/// tell which source it got.
enum FakeImage {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func body(for url: URL) -> Data { Data(signature + Array(url.absoluteString.utf8)) }

    static func response(for url: URL) -> DataResponse { DataResponse(data: body(for: url), url: url) }

    /// The URL string a fake body carries.
    static func source(of data: Data) -> String { String(decoding: data.dropFirst(signature.count), as: UTF8.self) }
}

/// A decoder for ``FakeImage`` bodies: a 400×300 source, shrunk to the box; the red channel of the first pixel
/// is the length of the source string (so tests can tell images apart). Counts its decodes.
final class FakeDecoder: ImageDecoding {
    private let count = Locked(0)
    var decodeCount: Int { count.withLock { $0 } }

    func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage {
        count.withLock { $0 += 1 }
        guard data.starts(with: FakeImage.signature) else {
            throw PinholeError(.decodingFailed, "not a fake image")
        }
        let size = options.thumbnail?.fittedSize(width: 400, height: 300) ?? PixelSize(width: 400, height: 300)
        let marker = UInt8(truncatingIfNeeded: FakeImage.source(of: data).count)
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
        pixels[0] = marker
        let image = PixelImage(width: size.width, height: size.height, pixelFormat: .rgb8, pixels: pixels)
        return DecodedImage(image: image, info: .init(format: .png, width: 400, height: 300))
    }
}
