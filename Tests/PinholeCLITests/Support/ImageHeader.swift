import Foundation

/// Reads the pixel size from the header of a JPEG, PNG or WebP file written by the CLI, so tests can check
/// the files themselves rather than what the report says about them.
enum ImageHeader {
    /// (width, height) in pixels, or `nil` when the header is not understood.
    static func size(of data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xD8]) { return jpegSize(bytes) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), bytes.count >= 24 {
            return (bigEndian(bytes, 16, 4), bigEndian(bytes, 20, 4))
        }
        if bytes.starts(with: Array("RIFF".utf8)), bytes.count >= 30 { return webpSize(bytes) }
        return nil
    }

    /// The size in the first SOFn segment.
    private static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            let length = bigEndian(bytes, index + 2, 2)
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (bigEndian(bytes, index + 7, 2), bigEndian(bytes, index + 5, 2))
            }
            index += 2 + length
        }
        return nil
    }

    /// The size in a VP8, VP8L or VP8X chunk.
    private static func webpSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        switch String(decoding: bytes[12..<16], as: UTF8.self) {
        case "VP8 ":
            return (littleEndian(bytes, 26, 2) & 0x3FFF, littleEndian(bytes, 28, 2) & 0x3FFF)
        case "VP8L":
            let bits = littleEndian(bytes, 21, 4)
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            return (littleEndian(bytes, 24, 3) + 1, littleEndian(bytes, 27, 3) + 1)
        default:
            return nil
        }
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<offset + count].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
