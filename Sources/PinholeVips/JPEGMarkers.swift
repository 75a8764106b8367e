import Foundation

/// What a JPEG's markers before the first scan say about colour: enough to decide whether the TurboJPEG fast
/// path gives the same picture as libvips (see ``VipsDecoder``'s `jpegFastPath`).
///
/// Read from the bytes only (no decoding): the frame header (`SOFn`: process, precision, component count), the
/// Adobe `APP14` colour transform and the ICC profile carried in `APP2 ICC_PROFILE` chunks (reassembled in
/// sequence order). A pure value; safe from any isolation.
struct JPEGMarkers: Equatable {
    /// The `SOFn` marker's second byte (`0xC0` baseline, `0xC1` extended, `0xC2` progressive …); `nil` if absent.
    var frameType: UInt8?
    /// Bits per sample (8 or 12).
    var precision = 0
    /// Colour components in the frame (1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK).
    var componentCount = 0
    /// The Adobe `APP14` transform flag (0 none/RGB/CMYK, 1 YCbCr, 2 YCCK); `nil` without such a marker.
    var adobeTransform: UInt8?
    /// The embedded ICC profile, reassembled; `nil` without one.
    var iccProfile: [UInt8]?

    /// Scans `data` up to the first `SOS` marker; `nil` when it is not a well-formed JPEG header. Reads the bytes
    /// through a raw buffer and skips fill bytes (`0xFF` runs) with one comparison each: a header padded with
    /// megabytes of fill costs milliseconds, not seconds.
    init?(_ data: Data) {
        var markers = JPEGMarkers()
        let parsed = data.withUnsafeBytes { bytes -> Bool in
            guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return false }
            var iccChunks: [Int: [UInt8]] = [:]
            var position = 2
            while position + 4 <= bytes.count {
                guard bytes[position] == 0xFF else { return false }
                let marker = bytes[position + 1]
                if marker == 0xFF {
                    position += 1
                    while position + 1 < bytes.count, bytes[position + 1] == 0xFF { position += 1 }  // fill bytes
                    continue
                }
                if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                    position += 2
                    continue
                }
                if marker == 0xDA || marker == 0xD9 { break }  // start of scan / end of image: the header is over
                let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
                let payloadEnd = position + 2 + length
                guard length >= 2, payloadEnd <= bytes.count else { return false }
                let payload = UnsafeRawBufferPointer(rebasing: bytes[(position + 4)..<payloadEnd])
                markers.read(marker: marker, payload: payload, iccChunks: &iccChunks)
                position = payloadEnd
            }
            if !iccChunks.isEmpty {
                markers.iccProfile = iccChunks.keys.sorted().flatMap { iccChunks[$0] ?? [] }
            }
            return markers.frameType != nil
        }
        guard parsed else { return nil }
        self = markers
    }

    private init() {}

    private mutating func read(marker: UInt8, payload: UnsafeRawBufferPointer, iccChunks: inout [Int: [UInt8]]) {
        let bytes = [UInt8](payload.prefix(16))
        switch marker {
        case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
            guard frameType == nil, bytes.count >= 6 else { return }
            frameType = marker
            precision = Int(bytes[0])
            componentCount = Int(bytes[5])
        case 0xEE where bytes.count >= 12 && bytes.starts(with: Array("Adobe".utf8)):
            adobeTransform = bytes[11]
        case 0xE2 where bytes.count >= 14 && bytes.starts(with: Array("ICC_PROFILE\0".utf8)):
            iccChunks[Int(bytes[12])] = [UInt8](payload.dropFirst(14))
        default:
            break
        }
    }

    /// Whether the frame is one TurboJPEG decodes like libvips' libjpeg does: Huffman-coded baseline, extended
    /// or progressive, 8 bits per sample.
    var isPlainHuffman8Bit: Bool {
        guard let frameType else { return false }
        return [0xC0, 0xC1, 0xC2].contains(frameType) && precision == 8
    }

    /// Whether the embedded profile, if any, is an RGB profile that describes itself as sRGB (the libvips path
    /// then converts sRGB to sRGB: no visible change). `true` without a profile.
    var profileIsAbsentOrSRGB: Bool {
        guard let iccProfile else { return true }
        guard let description = ICCProfileDescription(iccProfile), description.colourSpace == "RGB " else {
            return false
        }
        return description.text.contains("sRGB")
    }
}
