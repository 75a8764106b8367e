import Foundation

/// Follows a JPEG as its bytes arrive and counts the scans that are complete: what the progressive preview
/// waits for (a preview is worth making each time a scan has fully arrived).
///
/// Incremental: each call reads only the bytes that arrived since the last one. Segments are walked by their
/// lengths up to each start of scan (SOS, `FF DA`); inside entropy-coded data a marker is an `FF` followed by
/// anything but `00` (stuffing) or `D0`–`D7` (restarts), so the next SOS ends the previous scan.
struct ProgressiveJPEGScans {
    /// `true` after an SOF2 (progressive), `false` after any other SOF; `nil` until a frame header arrived.
    private(set) var isProgressive: Bool?
    /// Start-of-scan markers seen.
    private(set) var startedScans = 0
    /// Whether the end-of-image marker arrived (every scan is then complete).
    private(set) var ended = false
    private var offset = 0
    private var inEntropyData = false

    /// Scans whose bytes have all arrived.
    var completeScans: Int { ended ? startedScans : max(0, startedScans - 1) }

    /// Reads `data` (all bytes so far, a prefix of the final body) from where the last call stopped.
    mutating func advance(_ data: Data) {
        let bytes = [UInt8](data.dropFirst(offset))
        var index = 0
        func byte(_ i: Int) -> UInt8 { bytes[i] }
        scanning: while !ended {
            if inEntropyData {
                while index + 1 < bytes.count {
                    if byte(index) == 0xFF, byte(index + 1) != 0, !(0xD0...0xD7).contains(byte(index + 1)) {
                        inEntropyData = false
                        continue scanning
                    }
                    index += 1
                }
                break
            }
            guard index + 1 < bytes.count else { break }
            guard byte(index) == 0xFF else {  // not a JPEG (or lost sync): stop following it
                isProgressive = isProgressive ?? false
                ended = true
                break
            }
            let marker = byte(index + 1)
            switch marker {
            case 0xFF:
                index += 1
                continue scanning  // fill byte
            case 0xD8, 0x01, 0xD0...0xD7:
                index += 2
                continue scanning  // no length
            case 0xD9:
                ended = true
                index += 2
                continue scanning
            default: break
            }
            guard index + 3 < bytes.count else { break }
            let length = Int(byte(index + 2)) << 8 | Int(byte(index + 3))
            guard index + 2 + length <= bytes.count else { break }
            switch marker {
            case 0xC2: isProgressive = true
            case 0xC0, 0xC1, 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF: isProgressive = false
            case 0xDA:
                startedScans += 1
                inEntropyData = true
            default: break
            }
            index += 2 + length
        }
        offset += index
    }
}
