public import Foundation

/// An encoded image format, recognised from the first bytes of the data (magic bytes), never from a
/// file extension or a `Content-Type` header (see case C12 of the failure corpus).
///
/// An open set: a struct with static members, so new formats do not break callers.
public struct ImageFormat: Sendable, Hashable, CustomStringConvertible {
    /// Short lowercase name: `jpeg`, `png`, `gif`, `webp`, `heif`, `avif`, `bmp`, `tiff`, `svg`, `jxl`.
    public let name: String

    public init(name: String) { self.name = name }

    public static let jpeg = ImageFormat(name: "jpeg")
    public static let png = ImageFormat(name: "png")
    public static let gif = ImageFormat(name: "gif")
    public static let webp = ImageFormat(name: "webp")
    /// HEIC / HEIF (ISO BMFF `ftyp` brands heic, heix, mif1, msf1, …).
    public static let heif = ImageFormat(name: "heif")
    /// AVIF (ISO BMFF `ftyp` brands avif, avis).
    public static let avif = ImageFormat(name: "avif")
    public static let bmp = ImageFormat(name: "bmp")
    public static let tiff = ImageFormat(name: "tiff")
    /// SVG: XML text whose root element is `<svg`.
    public static let svg = ImageFormat(name: "svg")
    /// JPEG XL (ISO/IEC 18181): a bare codestream (`FF 0A`) or the ISO BMFF container (its `JXL ` signature box).
    public static let jxl = ImageFormat(name: "jxl")

    public var description: String { name }

    /// The name people know the format by, for messages: `JPEG`, `PNG`, `WebP`, `JPEG XL`…; ``name`` for a format
    /// without one.
    public var displayName: String {
        let names = [
            "jpeg": "JPEG", "png": "PNG", "gif": "GIF", "webp": "WebP", "heif": "HEIF", "avif": "AVIF", "bmp": "BMP",
            "tiff": "TIFF", "svg": "SVG", "jxl": "JPEG XL",
        ]
        return names[name] ?? name
    }

    /// The formats an untrusted source may be decoded as unless the caller asks for more
    /// (``DecodingOptions/untrustedFormats``): JPEG, PNG, GIF, WebP, HEIF, AVIF and TIFF. SVG (a whole XML and
    /// CSS engine), BMP (read through ImageMagick by libvips) and JPEG XL (a loader libvips itself marks
    /// untrusted) are left out.
    public static let untrustedDefault: Set<ImageFormat> = [.jpeg, .png, .gif, .webp, .heif, .avif, .tiff]
}

/// What the first bytes of some data look like: an image format, or a description of what was found.
public enum SniffedContent: Sendable, Hashable, CustomStringConvertible {
    /// Zero bytes.
    case empty
    /// A recognised image format.
    case image(ImageFormat)
    /// Not an image; `kind` says what it looks like (`HTML`, `JSON`, `XML`, `PDF`, `text`, `unknown bytes 1f 8b …`).
    case notAnImage(kind: String)

    public var description: String {
        switch self {
        case .empty: "empty data"
        case .image(let format): format.name
        case .notAnImage(let kind): kind
        }
    }
}

extension ImageFormat {
    /// Recognises the content of `data` from its first bytes (at most the first 512 are read).
    ///
    /// - Returns: ``SniffedContent/image(_:)`` for a known image signature; ``SniffedContent/empty`` for zero
    ///   bytes; otherwise ``SniffedContent/notAnImage(kind:)`` naming what the bytes look like.
    public static func sniff(_ data: Data) -> SniffedContent {
        if data.isEmpty { return .empty }
        let head = [UInt8](data.prefix(512))
        if let format = magicFormat(head) { return .image(format) }
        return .notAnImage(kind: describeNonImage(head))
    }

    private static func magicFormat(_ b: [UInt8]) -> ImageFormat? {
        func starts(_ sig: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + sig.count && Array(b[offset..<offset + sig.count]) == sig
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        // JPEG XL: the bare codestream, or the container's signature box (ISO/IEC 18181-2 §9.1). The codestream's
        // FF 0A is no JPEG marker a JPEG can start with (a JPEG starts with SOI, FF D8).
        if starts([0xFF, 0x0A]) { return .jxl }
        if starts([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return .jxl }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("BM".utf8)) && b.count >= 14 { return .bmp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("ftyp".utf8), at: 4) && b.count >= 12 {
            let brand = String(decoding: b[8..<12], as: UTF8.self)
            if brand == "avif" || brand == "avis" { return .avif }
            if ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(brand) { return .heif }
        }
        if looksLikeSVG(b) { return .svg }
        return nil
    }

    /// Lowercased text of the head with a leading BOM and white space removed.
    private static func leadingText(_ b: [UInt8]) -> String {
        var bytes = b[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.drop(while: { $0.isWhitespace }).lowercased()
    }

    private static func looksLikeSVG(_ b: [UInt8]) -> Bool {
        let text = leadingText(b)
        guard text.hasPrefix("<") else { return false }
        if text.hasPrefix("<svg") { return true }
        // An XML declaration, comments or a doctype may come first: look for the root element.
        if text.hasPrefix("<?xml") || text.hasPrefix("<!--") || text.hasPrefix("<!doctype svg") {
            return text.contains("<svg")
        }
        return false
    }

    private static func describeNonImage(_ b: [UInt8]) -> String {
        let text = leadingText(b)
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || text.hasPrefix("<head")
            || text.hasPrefix("<body") || (text.hasPrefix("<") && text.contains("<html"))
        {
            return "HTML"
        }
        if text.hasPrefix("<?xml") || text.hasPrefix("<") { return "XML" }
        if text.hasPrefix("{") || text.hasPrefix("[") { return "JSON" }
        if b.starts(with: Array("%PDF".utf8)) { return "PDF" }
        let printable = b.prefix(64).allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if printable { return "text" }
        let hex = b.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
        return "unknown bytes \(hex)"
    }
}
