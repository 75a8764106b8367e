#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Drops scans of a progressive JPEG that a scaled decode does not need, by a byte scan of its markers (no Huffman
/// decoding): the AC scans a 1/8-scale decode never reads (exact), or the AC refinement scans that send the
/// coefficients' last bit (an approximation for 1/4-scale decodes; see ``Rule/lastBitACRefinements``).
///
/// Input: a progressive JPEG (ITU-T T.81 Annex G: DC scans with `Ss = Se = 0`, AC scans with `Ss ≥ 1`, one
/// component each). Output: everything else copied byte for byte and in order (SOI, every marker segment wherever
/// it appears, every kept scan with its entropy-coded data, EOI), without the whole scan (SOS segment and data) of
/// each AC scan the ``Rule`` names. Under ``Rule/acScans(ofComponents:)`` every AC scan of a component goes, so no
/// kept refinement depends on a dropped scan; an AC scan before any kept scan of its component is kept, because
/// libjpeg latches a component's quantization table at its first scan. A scan's data ends at the first `0xFF`
/// not followed by `0x00`, `0xD0…0xD7` or `0xFF` (T.81 B.1.1.2, B.1.1.5).
///
/// The result also says which components the file sends completely (every coefficient to its last bit, `Al = 0`,
/// as libjpeg's `coef_bits` tracks it): for any other, libjpeg's whole-file decode smooths blocks, so the caller
/// must decode the whole file to get the same picture. Data that ends early is copied as far as it goes, without
/// an EOI, so the decoder sees the same premature end. Anything not understood (bytes between segments that are not
/// a marker, a segment length under 2, an SOS length that does not match its component count) returns `nil`: the
/// caller decodes the whole file. A pure function of its input; safe from any isolation.
package enum JPEGScanFilter {
    /// The filtered stream, and what went.
    package struct Result: Equatable {
        /// The JPEG without the dropped scans.
        package var bytes: [UInt8]
        /// Scans copied.
        package var keptScans: Int
        /// Scans left out (all of them AC scans).
        package var droppedScans: Int
        /// Components whose every coefficient some scan, kept or dropped, sends down to its last bit.
        package var completeComponents: Set<UInt8> = []
    }

    /// Which scans go.
    package enum Rule: Equatable, Sendable {
        /// Every AC scan (first passes and refinements) of these components (`Ci` of SOF, `Cs` of SOS): what a
        /// 1/8-scale decode never reads. Exact.
        case acScans(ofComponents: Set<UInt8>)
        /// Every AC successive-approximation refinement scan that refines to the last bit (`Ss ≥ 1`, `Ah > 0`,
        /// `Al = 0`; T.81 G.1.2.3), of any component. Such a scan is the last one that touches its coefficients, so
        /// no kept scan depends on it; without it each AC coefficient it covers lacks its lowest bit (its magnitude
        /// is at most one quantization step short, and a coefficient of ±1 that only this pass sends stays 0). DC
        /// scans and first passes are all kept. An approximation: the caller decides where it is close enough.
        case lastBitACRefinements
    }

    /// The JPEG in `data` without the AC scans of the components in `dcOnlyComponents` (component ids, the `Ci` of
    /// SOF and `Cs` of SOS); `nil` when its marker structure is not understood.
    package static func droppingACScans(of data: UnsafeRawBufferPointer, dcOnlyComponents: Set<UInt8>) -> Result? {
        filtering(data, dropping: .acScans(ofComponents: dcOnlyComponents))
    }

    /// The JPEG in `data` without the scans `rule` names; `nil` when its marker structure is not understood.
    package static func filtering(_ data: UnsafeRawBufferPointer, dropping rule: Rule) -> Result? {
        let count = data.count
        guard count >= 2, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
        var result = Result(bytes: [0xFF, 0xD8], keptScans: 0, droppedScans: 0)
        result.bytes.reserveCapacity(count / 4)
        var position = 2
        var componentsSeen = Set<UInt8>()
        var progression = Progression()
        while position < count {
            guard data[position] == 0xFF else { return nil }
            guard position + 1 < count else {
                result.bytes.append(0xFF)  // a lone 0xFF at the very end: the data ends early
                break
            }
            let marker = data[position + 1]
            switch marker {
            case 0xFF:  // a fill byte before a marker
                position += 1
                continue
            case 0xD9:  // EOI: done; anything after it is not part of the image
                result.bytes += [0xFF, 0xD9]
                result.completeComponents = progression.completeComponents
                return result
            case 0x01, 0xD0...0xD8:  // markers without a length (TEM, RSTn, SOI)
                result.bytes += [0xFF, marker]
                position += 2
                continue
            case 0x00:
                return nil
            default:
                break
            }
            guard position + 4 <= count else {
                copy(data, position..<count, to: &result.bytes)  // ends inside the marker's length
                break
            }
            let length = Int(data[position + 2]) << 8 | Int(data[position + 3])
            guard length >= 2 else { return nil }
            let segmentEnd = position + 2 + length
            guard marker == 0xDA, segmentEnd <= count else {
                copy(data, position..<min(segmentEnd, count), to: &result.bytes)
                position = segmentEnd
                continue
            }
            guard let scan = Scan(data, sosAt: position, length: length) else { return nil }
            let dataEnd = endOfEntropyCodedData(data, from: segmentEnd)
            progression.record(scan)
            if scan.isDropped(by: rule, componentsSeen: componentsSeen) {
                result.droppedScans += 1
            } else {
                copy(data, position..<dataEnd, to: &result.bytes)
                result.keptScans += 1
                componentsSeen.formUnion(scan.componentIDs)
            }
            position = dataEnd
        }
        result.completeComponents = progression.completeComponents
        return result
    }

    /// For each component, the successive-approximation bit (`Al`) of the last scan that covered each of its 64
    /// coefficients, −1 before any did (libjpeg's `coef_bits`).
    private struct Progression {
        var lastBit: [UInt8: [Int8]] = [:]

        mutating func record(_ scan: Scan) {
            guard scan.spectralStart <= scan.spectralEnd, scan.spectralEnd <= 63 else { return }
            for component in scan.componentIDs {
                var bits = lastBit[component] ?? [Int8](repeating: -1, count: 64)
                for coefficient in Int(scan.spectralStart)...Int(scan.spectralEnd) {
                    bits[coefficient] = Int8(scan.successiveLow)
                }
                lastBit[component] = bits
            }
        }

        var completeComponents: Set<UInt8> {
            Set(lastBit.filter { $0.value.allSatisfy { $0 == 0 } }.keys)
        }
    }

    /// The parameters of one SOS segment (T.81 B.2.3) that the filter needs.
    private struct Scan {
        var componentIDs: [UInt8]
        /// `Ss` and `Se`: the first and last coefficient (zigzag order) the scan carries.
        var spectralStart: UInt8
        var spectralEnd: UInt8
        /// `Ah`: the bit position of the previous pass over these coefficients (0 = a first pass).
        var successiveHigh: UInt8
        /// `Al`: the bit position the scan refines to (0 = the last bit).
        var successiveLow: UInt8
        /// `Ss > 0`: the scan carries AC coefficients.
        var isAC: Bool { spectralStart > 0 }

        /// Whether `rule` leaves this scan out, given the components some kept scan already carried.
        func isDropped(by rule: Rule, componentsSeen: Set<UInt8>) -> Bool {
            guard isAC else { return false }
            switch rule {
            case .acScans(let components):
                return componentIDs.count == 1 && components.contains(componentIDs[0])
                    && componentsSeen.contains(componentIDs[0])
            case .lastBitACRefinements:
                return successiveHigh > 0 && successiveLow == 0
            }
        }

        /// `nil` when the segment's length does not match its component count (1…4).
        init?(_ data: UnsafeRawBufferPointer, sosAt position: Int, length: Int) {
            guard length >= 3 else { return nil }
            let componentCount = Int(data[position + 4])
            guard (1...4).contains(componentCount), length == 6 + 2 * componentCount else { return nil }
            let parameters = position + 5 + 2 * componentCount
            componentIDs = (0..<componentCount).map { data[position + 5 + 2 * $0] }
            spectralStart = data[parameters]
            spectralEnd = data[parameters + 1]
            successiveHigh = data[parameters + 2] >> 4
            successiveLow = data[parameters + 2] & 0x0F
        }
    }

    /// The index of the marker that ends the entropy-coded data starting at `start` (its `0xFF`), or the end of
    /// `data` when no marker follows.
    static func endOfEntropyCodedData(_ data: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard let base = data.baseAddress else { return data.count }
        var position = start
        while position < data.count {
            guard let found = memchr(base + position, 0xFF, data.count - position) else { return data.count }
            position = base.distance(to: UnsafeRawPointer(found))
            guard position + 1 < data.count else { return data.count }
            switch data[position + 1] {
            case 0x00, 0xD0...0xD7: position += 2  // a stuffed 0xFF, a restart marker: still scan data
            case 0xFF: position += 1  // a fill byte: the marker starts at the last 0xFF
            default: return position
            }
        }
        return data.count
    }

    private static func copy(_ data: UnsafeRawBufferPointer, _ range: Range<Int>, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: data[range]))
    }
}
