/// Counting a JPEG's scans by the same byte walk as ``JPEGScanFilter/filtering(_:dropping:)`` (no Huffman decoding).
extension JPEGScanFilter {
    /// The number of `SOS` segments in `data` up to its `EOI` (or its end, when it ends early); `nil` when its marker
    /// structure is not understood (the same cases as ``filtering(_:dropping:)``). Reads each scan's entropy-coded
    /// data with `memchr`: linear in the size of `data`.
    package static func scanCount(_ data: UnsafeRawBufferPointer) -> Int? {
        let count = data.count
        guard count >= 2, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
        var scans = 0
        var position = 2
        while position + 1 < count {
            guard data[position] == 0xFF else { return nil }
            let marker = data[position + 1]
            switch marker {
            case 0xFF:  // a fill byte before a marker
                position += 1
                continue
            case 0xD9:  // EOI
                return scans
            case 0x01, 0xD0...0xD8:  // markers without a length (TEM, RSTn, SOI)
                position += 2
                continue
            case 0x00:
                return nil
            default:
                break
            }
            guard position + 4 <= count else { return scans }
            let length = Int(data[position + 2]) << 8 | Int(data[position + 3])
            guard length >= 2 else { return nil }
            let segmentEnd = position + 2 + length
            guard marker == 0xDA, segmentEnd <= count else {
                position = segmentEnd
                continue
            }
            scans += 1
            position = endOfEntropyCodedData(data, from: segmentEnd)
        }
        return scans
    }
}
