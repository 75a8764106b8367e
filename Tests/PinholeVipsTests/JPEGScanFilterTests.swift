import Foundation
import PinholeTestSupport
import PinholeVips
import Testing

/// The byte scan that leaves a progressive JPEG's AC scans out: which scans go, what stays byte for byte, and what
/// it declines.
@Suite(.timeLimit(scaledMinutes: 1))
struct JPEGScanFilterTests {
    /// One scan of a JPEG as an independent reading of its SOS header gives it.
    struct ScanHeader: Equatable {
        var componentIDs: [UInt8]
        var spectralStart: UInt8
        /// `Ah << 4 | Al`, as stored.
        var approximation: UInt8
    }

    /// Every SOS header in `bytes`, walking segment lengths and skipping entropy-coded data (test-side parser).
    static func scans(_ bytes: [UInt8]) -> [ScanHeader] {
        var found: [ScanHeader] = []
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF, bytes[position + 1] != 0xD9 {
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            var next = position + 2 + length
            if bytes[position + 1] == 0xDA {
                let count = Int(bytes[position + 4])
                found.append(
                    ScanHeader(
                        componentIDs: (0..<count).map { bytes[position + 5 + 2 * $0] },
                        spectralStart: bytes[position + 5 + 2 * count],
                        approximation: bytes[position + 7 + 2 * count]))
                while next + 1 < bytes.count,
                    !(bytes[next] == 0xFF && bytes[next + 1] != 0 && !(0xD0...0xD7).contains(bytes[next + 1]))
                {
                    next += 1
                }
            }
            position = next
        }
        return found
    }

    static func filter(_ bytes: [UInt8], dcOnly: Set<UInt8>) -> JPEGScanFilter.Result? {
        bytes.withUnsafeBytes { JPEGScanFilter.droppingACScans(of: $0, dcOnlyComponents: dcOnly) }
    }

    static func fixture(_ relative: String) async throws -> [UInt8] {
        [UInt8](try await Fixtures.caseFile(relative))
    }

    @Test func keepsABaselineJPEGWhole() async throws {
        // Given a baseline JPEG (one scan, Ss = 0, Se = 63)
        let bytes = try await Self.fixture("inputs/baseline.jpg")
        // When its components are declared DC-only
        let result = try #require(Self.filter(bytes, dcOnly: [1, 2, 3]))
        // Then nothing is dropped: its only scan is not an AC scan of a progressive frame
        #expect(result.bytes == bytes)
        #expect((result.keptScans, result.droppedScans) == (1, 0))
    }

    @Test func lastBitRuleDropsTheACRefinementsToTheLastBitAndNothingElse() async throws {
        // Given a progressive 4:4:4 JPEG from libjpeg's default script (AC first passes to bit 1 or 2, then
        // refinements down to bit 0; DC first pass and refinement)
        let bytes = try await Self.fixture("inputs/progressive.jpg")
        let original = Self.scans(bytes)
        let lastBitAC = { (scan: ScanHeader) in
            scan.spectralStart > 0 && scan.approximation >> 4 > 0
                && scan.approximation & 0x0F == 0
        }
        #expect(original.contains(where: lastBitAC))
        #expect(original.contains { $0.spectralStart == 0 && $0.approximation >> 4 > 0 }, "a DC refinement")
        // When the last-bit AC refinements are left out
        let result = try #require(
            bytes.withUnsafeBytes { JPEGScanFilter.filtering($0, dropping: .lastBitACRefinements) })
        // Then exactly those scans are gone, in order; DC refinements and every first pass stay
        let expected = original.filter { !lastBitAC($0) }
        #expect(Self.scans(result.bytes) == expected)
        #expect(result.droppedScans == original.count - expected.count)
        #expect(result.keptScans == expected.count)
        #expect(result.bytes.suffix(2) == [0xFF, 0xD9])
        // And the file still counts as sending every coefficient to its last bit (the dropped scans did)
        #expect(result.completeComponents == [1, 2, 3])
    }

    @Test func dropsEveryACScanOfTheDCOnlyComponentsAndNothingElse() async throws {
        // Given a progressive 4:4:4 JPEG
        let bytes = try await Self.fixture("inputs/progressive.jpg")
        let original = Self.scans(bytes)
        #expect(original.contains { $0.spectralStart == 0 } && original.contains { $0.spectralStart > 0 })

        // When only luma (component 1) is DC-only
        let result = try #require(Self.filter(bytes, dcOnly: [1]))
        let kept = Self.scans(result.bytes)

        // Then exactly its luma AC scans are gone, in order, and every other scan is still there
        let expected = original.filter { $0.spectralStart == 0 || $0.componentIDs != [1] }
        #expect(kept == expected)
        #expect(result.droppedScans == original.count - expected.count && result.droppedScans > 0)
        #expect(result.keptScans == expected.count)
        #expect(result.bytes.suffix(2) == [0xFF, 0xD9])

        // And the file sends every coefficient of its three components to the last bit
        #expect(result.completeComponents == [1, 2, 3])

        // And with every component DC-only, only the DC scans (first and refinement passes) remain
        let dcScans = try #require(Self.filter(bytes, dcOnly: [1, 2, 3]))
        #expect(Self.scans(dcScans.bytes) == original.filter { $0.spectralStart == 0 })
        #expect(dcScans.bytes.count < bytes.count / 2)
    }

    @Test func copiesTruncatedDataAsFarAsItGoesWithoutAddingAnEOI() async throws {
        // Given a progressive JPEG cut inside its last scan (an AC scan)
        let whole = try await Self.fixture("inputs/progressive.jpg")
        let cut = Array(whole.dropLast(6))
        let last = try #require(Self.scans(whole).last)
        #expect(last.spectralStart > 0)

        // When its component is kept, the cut scan is copied as it is; when DC-only, it is left out
        let keeping = try #require(Self.filter(cut, dcOnly: []))
        let dropping = try #require(Self.filter(cut, dcOnly: Set(last.componentIDs)))

        // Then neither stream gains an end-of-image marker the data did not have
        #expect(keeping.bytes == cut)
        // And the component whose last scan is cut still counts as complete by its scan headers (its data ends
        // early: the decoder reports that), while a file cut before that scan's header does not
        #expect(keeping.completeComponents.isSuperset(of: last.componentIDs))
        let sosOfLast = try #require((0..<whole.count - 1).last { whole[$0] == 0xFF && whole[$0 + 1] == 0xDA })
        let shorter = try #require(Self.filter(Array(whole.prefix(sosOfLast)), dcOnly: []))
        #expect(shorter.completeComponents.isDisjoint(with: last.componentIDs))
        #expect(dropping.bytes.suffix(2) != [0xFF, 0xD9])
        #expect(dropping.bytes.count < cut.count)
    }

    @Test func treatsStuffedBytesRestartMarkersAndFillBytesAsScanData() throws {
        // Given a progressive-style stream: SOI, a DC scan of component 1, then an AC scan of it whose data holds
        // a stuffed 0xFF, a restart marker and fill bytes before EOI
        let dcScan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x56]
        let sos: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x01, 0x3F, 0x00]
        let scanData: [UInt8] = [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56, 0xFF, 0xFF]
        let stream: [UInt8] = [0xFF, 0xD8] + dcScan + sos + scanData + [0xFF, 0xD9]

        // When component 1 is DC-only, or not
        let dropped = try #require(Self.filter(stream, dcOnly: [1]))
        let kept = try #require(Self.filter(stream, dcOnly: [2]))

        // Then the whole scan goes up to EOI's marker, or stays byte for byte
        #expect(dropped.bytes == [0xFF, 0xD8] + dcScan + [0xFF, 0xD9])
        #expect((dropped.keptScans, dropped.droppedScans) == (1, 1))
        #expect(kept.bytes == stream)
        #expect((kept.keptScans, kept.droppedScans) == (2, 0))
    }

    @Test func keepsAnACScanThatComesBeforeItsComponentsFirstScan() throws {
        // Given a stream whose AC scan of component 1 comes before the DC scan (libjpeg latches a component's
        // quantization table at its first scan, so that scan must stay)
        let acScan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x01, 0x3F, 0x00, 0x12, 0x34]
        let dcScan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x56]
        let stream: [UInt8] = [0xFF, 0xD8] + acScan + dcScan + acScan + [0xFF, 0xD9]

        // When component 1 is DC-only
        let result = try #require(Self.filter(stream, dcOnly: [1]))

        // Then the first AC scan stays and only the one after the DC scan goes
        #expect(result.bytes == [0xFF, 0xD8] + acScan + dcScan + [0xFF, 0xD9])
        #expect((result.keptScans, result.droppedScans) == (2, 1))
    }

    @Test(
        arguments: [
            ("not a JPEG", [0x89, 0x50, 0x4E, 0x47]),
            ("bytes between segments", [0xFF, 0xD8, 0x12, 0x34, 0xFF, 0xD9]),
            ("a segment length under 2", [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x01, 0xFF, 0xD9]),
            (
                "an SOS length that does not match its components",
                [
                    0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x09, 0x01, 0x01,
                    0x00, 0x01, 0x3F, 0x00, 0x00, 0xFF, 0xD9,
                ]
            ),
            ("a stuffing byte where a marker belongs", [0xFF, 0xD8, 0xFF, 0x00, 0xFF, 0xD9]),
        ] as [(String, [UInt8])])
    func declinesWhatItDoesNotUnderstand(name: String, bytes: [UInt8]) {
        // Given bytes whose marker structure the filter does not understand
        // When filtered, Then it declines (the caller decodes the whole data instead)
        #expect(Self.filter(bytes, dcOnly: [1, 2, 3]) == nil, "\(name)")
    }
}
