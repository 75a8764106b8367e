import Foundation

/// A ThumbHash: a placeholder of about 25 bytes that keeps an image's colours, layout, aspect ratio and alpha
/// (Evan Wallace's algorithm, https://evanw.github.io/thumbhash/).
///
/// Layout: a 24-bit and a 16-bit header (the DC terms of luminance L and of the colour differences P = yellow − blue
/// and Q = red − green, the AC scales, how many L terms run across and down, landscape, alpha), a byte of alpha DC
/// and scale when there is alpha, then one 4-bit value per AC term of L, P, Q (and A), in the order of a triangle
/// of DCT coefficients. Encoding reads an image of at most 100 × 100 pixels (larger gives nothing more: resize
/// first, `ThumbHash.make(from:)` in `PinholeVips` does); decoding paints at most 32 × 32. Pure values, safe from
/// any isolation.
public struct ThumbHash: Sendable, Hashable, CustomStringConvertible {
    /// The encoded bytes (5 to about 25).
    public let bytes: [UInt8]
    let header: Header

    /// The largest side ``init(encoding:)`` reads, in pixels: 100.
    public static let maxEncodedSide = 100
    /// The longer side of ``decoded()``, in pixels: 32.
    public static let decodedSide = 32

    /// Reads a hash from its bytes.
    ///
    /// - Throws: ``PinholeError/Code/invalidRequest`` when the bytes are fewer than the header needs or than the
    ///   AC terms it declares (a hash cut short, or not a ThumbHash).
    public init(bytes: [UInt8]) throws {
        guard let header = Header(bytes), bytes.count >= header.byteCount else {
            throw PinholeError(.invalidRequest, "not a ThumbHash: \(bytes.count) bytes are too few for its header")
        }
        self.bytes = bytes
        self.header = header
    }

    /// Reads a hash from base64 (the form JSON carries); `nil` when it is not base64 or not a ThumbHash.
    public init?(base64: String) {
        guard let data = Data(base64Encoded: base64), let hash = try? ThumbHash(bytes: [UInt8](data)) else {
            return nil
        }
        self = hash
    }

    /// The bytes the hash's header declares it takes (header and AC terms); ``bytes`` may hold more, which decoding
    /// ignores (as the reference decoder does). A reader of untrusted hashes can require the two to be equal.
    public var declaredByteCount: Int { header.byteCount }

    /// The bytes in base64 (RFC 4648, with padding).
    public var base64: String { Data(bytes).base64EncodedString() }

    /// The base64 form.
    public var description: String { base64 }

    /// The width ÷ height of the image the hash was made from, as the hash records it (to within its count of
    /// luminance terms: 7:1 at most).
    public var approximateAspectRatio: Double { Double(header.aspectColumns) / Double(max(1, header.aspectRows)) }

    /// The image's average colour, alpha included (straight, not premultiplied).
    public var averageColour: PixelImage.RGBA {
        let (r, g, b) = Self.rgb(l: header.lDC, p: header.pDC, q: header.qDC)
        return PixelImage.RGBA(r: Self.byte(r), g: Self.byte(g), b: Self.byte(b), a: Self.byte(header.aDC))
    }

    /// Red, green and blue (0…1, unclamped) of luminance `l` and colour differences `p`, `q`.
    static func rgb(l: Double, p: Double, q: Double) -> (Double, Double, Double) {
        let b = l - 2.0 / 3.0 * p
        let r = (3.0 * l - b + q) / 2.0
        return (r, r - q, b)
    }

    /// A channel of 0…1 (clamped) as a byte, truncated as the reference implementation's byte arrays store it.
    static func byte(_ value: Double) -> UInt8 { UInt8(min(1, max(0, value)) * 255) }
}

extension ThumbHash {
    /// The constants of a hash: its two (or three) header fields, decoded.
    struct Header: Sendable, Hashable {
        var lDC: Double
        var pDC: Double
        var qDC: Double
        var lScale: Double
        var pScale: Double
        var qScale: Double
        var aDC = 1.0
        var aScale = 1.0
        var hasAlpha: Bool
        var isLandscape: Bool
        /// The L terms across and down, as stored (the shorter side's count may be below 3).
        var storedColumns: Int
        var storedRows: Int

        /// L terms across and down that the AC values cover (at least 3 each).
        var lColumns: Int { max(3, storedColumns) }
        var lRows: Int { max(3, storedRows) }
        /// The counts the aspect ratio is read from (the stored ones; 0 for a hostile hash).
        var aspectColumns: Int { storedColumns }
        var aspectRows: Int { storedRows }

        /// Bytes the whole hash takes: the header, then a nibble per AC term.
        var byteCount: Int {
            let terms =
                ThumbHash.triangle(columns: lColumns, rows: lRows).count - 1 + 2 * 5 + (hasAlpha ? 14 : 0)
            return (hasAlpha ? 6 : 5) + (terms + 1) / 2
        }

        init?(_ bytes: [UInt8]) {
            guard bytes.count >= 5 else { return nil }
            let header24 = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16
            let header16 = Int(bytes[3]) | Int(bytes[4]) << 8
            lDC = Double(header24 & 63) / 63
            pDC = Double(header24 >> 6 & 63) / 31.5 - 1
            qDC = Double(header24 >> 12 & 63) / 31.5 - 1
            lScale = Double(header24 >> 18 & 31) / 31
            hasAlpha = header24 >> 23 != 0
            pScale = Double(header16 >> 3 & 63) / 63
            qScale = Double(header16 >> 9 & 63) / 63
            isLandscape = header16 >> 15 != 0
            let longest = hasAlpha ? 5 : 7
            storedColumns = isLandscape ? longest : header16 & 7
            storedRows = isLandscape ? header16 & 7 : longest
            if hasAlpha {
                guard bytes.count >= 6 else { return nil }
                aDC = Double(bytes[5] & 15) / 15
                aScale = Double(bytes[5] >> 4) / 15
            }
        }
    }

    /// The DCT coefficients (cx, cy) a hash keeps of an `columns` × `rows` grid, in its order: row by row, the
    /// triangle `cx × rows < columns × (rows − cy)` (the first is the DC term).
    static func triangle(columns: Int, rows: Int) -> [(cx: Int, cy: Int)] {
        var terms: [(cx: Int, cy: Int)] = []
        for cy in 0..<rows {
            var cx = 0
            while cx * rows < columns * (rows - cy) {
                terms.append((cx, cy))
                cx += 1
            }
        }
        return terms
    }
}
