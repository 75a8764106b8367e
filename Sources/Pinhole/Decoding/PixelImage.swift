/// A decoded bitmap: 8 bits per channel, origin top-left, rows top to bottom.
///
/// Shape:
/// - ``width`` and ``height`` are in pixels (both ≥ 1).
/// - ``pixelFormat`` says the channel layout: ``PixelFormat/rgba8`` is R, G, B, A bytes in that
///   order with *straight* (not premultiplied) alpha; ``PixelFormat/rgb8`` is R, G, B; ``PixelFormat/gray8``
///   is one luminance byte.
/// - ``bytesPerRow`` is the row stride in bytes, always ≥ `width × bytesPerPixel`.
/// - Colour is 8-bit sRGB (decoders convert before they return).
///
/// `PixelImage` has value semantics and is `Sendable`; copies share storage until written.
public struct PixelImage: Sendable, Hashable {
    /// How the bytes of one pixel are laid out.
    public enum PixelFormat: String, Sendable, Hashable, CaseIterable {
        /// 4 bytes a pixel: R, G, B, A; straight (not premultiplied) alpha.
        case rgba8
        /// 3 bytes a pixel: R, G, B.
        case rgb8
        /// 1 byte a pixel: luminance.
        case gray8

        /// Bytes a pixel: 4, 3 or 1.
        public var bytesPerPixel: Int {
            switch self {
            case .rgba8: 4
            case .rgb8: 3
            case .gray8: 1
            }
        }

        /// Whether the format carries an alpha channel.
        public var hasAlpha: Bool { self == .rgba8 }
    }

    /// One pixel's channels, 0…255; `a` is 255 for formats without alpha.
    public struct RGBA: Sendable, Hashable, CustomStringConvertible {
        public var r: UInt8
        public var g: UInt8
        public var b: UInt8
        public var a: UInt8

        public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
            self.r = r
            self.g = g
            self.b = b
            self.a = a
        }

        public var description: String { "(\(r),\(g),\(b),\(a))" }
    }

    /// Width in pixels (≥ 1).
    public let width: Int
    /// Height in pixels (≥ 1).
    public let height: Int
    /// Channel layout of each pixel.
    public let pixelFormat: PixelFormat
    /// Row stride in bytes (≥ `width × pixelFormat.bytesPerPixel`).
    public let bytesPerRow: Int
    /// The pixel bytes, `bytesPerRow × height` of them, rows top to bottom.
    public let pixels: [UInt8]

    /// Creates an image over `pixels`.
    ///
    /// - Precondition: `width ≥ 1`, `height ≥ 1`, `bytesPerRow ≥ width × bytesPerPixel`, and
    ///   `pixels.count ≥ bytesPerRow × height`. These are programmer errors, not input errors:
    ///   decoders validate input before they build a `PixelImage`.
    public init(width: Int, height: Int, pixelFormat: PixelFormat, bytesPerRow: Int? = nil, pixels: [UInt8]) {
        let stride = bytesPerRow ?? width * pixelFormat.bytesPerPixel
        precondition(width >= 1 && height >= 1, "PixelImage needs at least 1×1 pixels")
        precondition(stride >= width * pixelFormat.bytesPerPixel, "bytesPerRow is shorter than a row")
        precondition(pixels.count >= stride * height, "pixel buffer is shorter than bytesPerRow × height")
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.bytesPerRow = stride
        self.pixels = pixels
    }

    /// Memory the pixels take, in bytes: the cost used by ``MemoryCache``.
    public var cost: Int { pixels.count }

    /// Whether the image has an alpha channel.
    public var hasAlpha: Bool { pixelFormat.hasAlpha }

    /// The pixel at (`x`, `y`), counted from the top-left corner; grey is spread over r, g and b.
    ///
    /// - Precondition: `0 ≤ x < width` and `0 ≤ y < height`.
    public func pixel(x: Int, y: Int) -> RGBA {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x),\(y)) is outside \(width)×\(height)")
        let offset = y * bytesPerRow + x * pixelFormat.bytesPerPixel
        switch pixelFormat {
        case .rgba8:
            return RGBA(r: pixels[offset], g: pixels[offset + 1], b: pixels[offset + 2], a: pixels[offset + 3])
        case .rgb8:
            return RGBA(r: pixels[offset], g: pixels[offset + 1], b: pixels[offset + 2])
        case .gray8:
            let v = pixels[offset]
            return RGBA(r: v, g: v, b: v)
        }
    }
}
