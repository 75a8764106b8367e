public import Foundation
public import Pinhole

/// The test suites' fake encoded images: a PNG signature followed by the source URL, so bodies sniff as images
/// and a decoder can tell which source it got.
public enum FakeImage {
    /// The PNG signature every fake body starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The fake body for `url`: the signature, then the URL string.
    public static func body(for url: URL) -> Data { Data(signature + Array(url.absoluteString.utf8)) }

    /// A response for `url` carrying its ``body(for:)``.
    public static func response(for url: URL) -> DataResponse { DataResponse(data: body(for: url), url: url) }

    /// The URL string a fake body carries.
    public static func source(of data: Data) -> String {
        String(decoding: data.dropFirst(signature.count), as: UTF8.self)
    }

    /// The colour every pixel of a source's decoded image has: a 24-bit FNV-1a hash of the whole URL string, so
    /// two URLs that differ anywhere (not only in length) give different pixels. Tests `#require` that the
    /// URLs they compare have distinct colours.
    public static func colour(for url: URL) -> PixelImage.RGBA {
        colour(forSource: url.absoluteString)
    }

    /// The colour of ``colour(for:)`` for a URL string.
    public static func colour(forSource source: String) -> PixelImage.RGBA {
        var hash: UInt32 = 2_166_136_261
        for byte in source.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return PixelImage.RGBA(
            r: UInt8(truncatingIfNeeded: hash >> 16), g: UInt8(truncatingIfNeeded: hash >> 8),
            b: UInt8(truncatingIfNeeded: hash))
    }

    /// What ``FakeDecoder`` makes of `source`'s body (synchronously): a 400×300 source shrunk to `thumbnail`'s
    /// box, every pixel the source's colour.
    public static func decoded(source: String, thumbnail: ThumbnailOptions?) -> DecodedImage {
        let size = thumbnail?.fittedSize(width: 400, height: 300) ?? PixelSize(width: 400, height: 300)
        let colour = colour(forSource: source)
        let pixels = [UInt8]([colour.r, colour.g, colour.b]).repeated(size.width * size.height)
        let image = PixelImage(width: size.width, height: size.height, pixelFormat: .rgb8, pixels: pixels)
        return DecodedImage(image: image, info: .init(format: .png, width: 400, height: 300))
    }

    /// The colour every pixel of `image` has (so a test can compare it with a URL's ``colour(for:)``), or `nil`
    /// when the pixels differ or the image is not `rgb8`.
    public static func uniformColour(of image: PixelImage) -> PixelImage.RGBA? {
        guard image.pixelFormat == .rgb8, image.bytesPerRow == image.width * 3, image.pixels.count >= 3 else {
            return nil
        }
        let (r, g, b) = (image.pixels[0], image.pixels[1], image.pixels[2])
        var index = 3
        while index + 2 < image.pixels.count {
            let pixel = (image.pixels[index], image.pixels[index + 1], image.pixels[index + 2])
            guard pixel == (r, g, b) else { return nil }
            index += 3
        }
        return PixelImage.RGBA(r: r, g: g, b: b)
    }

    /// Whether `image` is `url`'s image: every pixel has `url`'s colour.
    public static func isImage(_ image: PixelImage, of url: URL) -> Bool {
        uniformColour(of: image) == colour(for: url)
    }
}

extension Array {
    /// The array repeated `count` times.
    fileprivate func repeated(_ count: Int) -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(self.count * count)
        for _ in 0..<count { result.append(contentsOf: self) }
        return result
    }
}
