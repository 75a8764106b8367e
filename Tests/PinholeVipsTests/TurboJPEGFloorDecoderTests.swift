import Foundation
import PinholeVips
import Testing

@testable import Pinhole

/// The benchmark's TurboJPEG floor and chart labels, now in PinholeVips: they decode and draw what they say.
struct TurboJPEGFloorDecoderTests {
    @Test func theFloorDecodesEachFileAtOneEighthScale() throws {
        // Given the 4096 × 4096 fixture twice
        let file = Fixtures.cases.appendingPathComponent("inputs/large-4096x4096.jpg").path

        // When the floor decodes them
        let pixels = try TurboJPEGFloorDecoder.decodeAtOneEighth([file, file])

        // Then it decoded 512 × 512 pixels of each
        #expect(pixels == 2 * 512 * 512)
    }

    @Test func aFileThatIsNotThereOrNotAJPEGIsATypedError() {
        // Given a missing path and a text file
        #expect(throws: PinholeError.self) { try TurboJPEGFloorDecoder.decodeAtOneEighth(["/nonexistent.jpg"]) }
        #expect(throws: PinholeError.self) { try TurboJPEGFloorDecoder.decodeAtOneEighth(["/etc/hostname"]) }
    }

    @Test func textIsRenderedAsInkOnNothing() throws {
        // Given / When a label is rendered
        let label = try VipsText.render("Pinhole 1.6×")

        // Then it is a grey coverage image wider than tall, with ink and with empty space
        #expect(label.pixelFormat == .gray8 && label.width > label.height)
        #expect(label.pixels.contains(0) && label.pixels.contains { $0 > 200 })
    }
}
