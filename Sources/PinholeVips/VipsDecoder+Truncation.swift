import Foundation
import Pinhole

extension VipsDecoder {
    /// Whether the container of `data` says it is incomplete: a JPEG without its end-of-image marker, a PNG
    /// without `IEND`, a GIF without its trailer, a WebP shorter than its RIFF size, a BMP shorter than its
    /// header's file size, a TIFF whose first directory lies past the end.
    ///
    /// Used to classify a libvips failure as ``PinholeError/Code/truncated`` without relying on libvips' error
    /// text alone: that buffer is process-global, so under concurrent decodes it may hold another decode's words.
    static func containerLooksTruncated(_ data: Data, format: ImageFormat) -> Bool {
        let bytes = [UInt8](data.suffix(64))
        switch format {
        case .jpeg:
            // EOI (FF D9), possibly followed by a little padding.
            return !zip(bytes, bytes.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 }
        case .png:
            return !containsSequence(bytes, Array("IEND".utf8))
        case .gif:
            // The trailer byte 0x3B, possibly followed by padding.
            return !bytes.contains(0x3B)
        case .webp:
            guard data.count >= 12 else { return true }
            return data.count < littleEndian32(data, at: 4) + 8
        case .bmp:
            // The file size in the header (0 in a few writers: then unknown).
            guard data.count >= 14 else { return true }
            return data.count < littleEndian32(data, at: 2)
        case .tiff:
            // Only the first directory's offset is checked; deeper damage is left to libvips' words.
            guard data.count >= 8 else { return true }
            let head = [UInt8](data.prefix(8))
            let offset =
                head[0] == 0x49
                ? littleEndian32(data, at: 4)
                : Int(head[4]) << 24 | Int(head[5]) << 16 | Int(head[6]) << 8 | Int(head[7])
            return offset + 2 > data.count
        default:
            return false
        }
    }

    /// Whether ``containerLooksTruncated(_:format:)`` knows the whole of the format's container (TIFF: only
    /// its first directory offset).
    static func containerIsCheckable(_ format: ImageFormat) -> Bool {
        [ImageFormat.jpeg, .png, .gif, .webp, .bmp].contains(format)
    }

    private static func littleEndian32(_ data: Data, at offset: Int) -> Int {
        let bytes = [UInt8](data.dropFirst(offset).prefix(4))
        guard bytes.count == 4 else { return 0 }
        return Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
    }

    private static func containsSequence(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<$0 + needle.count]) == needle }
    }
}
