import Foundation
import PinholeTestSupport
import PinholeVips
import Testing

@testable import Pinhole

/// Fill bytes (runs of `0xFF` before a marker, T.81 B.1.1.2) change nothing: the header walk skips them in one
/// pass (a header padded with megabytes of them cost seconds before), and the image decodes as without them.
@Suite(.timeLimit(scaledMinutes: 1))
struct JPEGFillBytesTests {
    /// `data` with `count` fill bytes inserted before the marker that follows SOI.
    static func padded(_ data: Data, fill count: Int) -> Data {
        var bytes = [UInt8](data)
        bytes.insert(contentsOf: [UInt8](repeating: 0xFF, count: count), at: 2)
        return Data(bytes)
    }

    @Test func aHeaderPaddedWithAMegabyteOfFillIsReadAndDecodesTheSame() async throws {
        // Given a baseline JPEG and the same with 1 MB of fill bytes after SOI
        let plain = try await Fixtures.caseFile("inputs/baseline.jpg")
        let padded = Self.padded(plain, fill: 1_000_000)

        // When both are checked for the fast path and thumbnailed
        let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 64))
        let decoder = VipsDecoder()
        let fromPlain = try await decoder.decode(plain, options: options)
        let fromPadded = try await decoder.decode(padded, options: options)

        // Then the padded one is eligible as the plain one is, and gives the same pixels
        #expect(VipsDecoder.isJPEGFastPathEligible(plain))
        #expect(VipsDecoder.isJPEGFastPathEligible(padded))
        #expect(fromPadded.image == fromPlain.image)
    }
}
