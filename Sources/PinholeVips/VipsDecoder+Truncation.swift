public import Foundation
public import Pinhole

extension VipsDecoder {
    /// Whether the container of `data` says it is incomplete: a JPEG without its end-of-image marker, a PNG
    /// without `IEND`, a GIF without its trailer, a WebP shorter than its RIFF size.
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
            let head = [UInt8](data.prefix(8))
            let riffSize = Int(head[4]) | Int(head[5]) << 8 | Int(head[6]) << 16 | Int(head[7]) << 24
            return data.count < riffSize + 8
        default:
            return false
        }
    }

    private static func containsSequence(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<$0 + needle.count]) == needle }
    }
}
