import Foundation
import PinholeTestSupport
import Testing

@testable import Pinhole

/// ThumbHash's own rules: what it reads, what it refuses, and that hostile bytes never crash its decode.
struct ThumbHashTests {
    /// A 60 × 40 image: left half red, right half blue, opaque.
    static let halves: PixelImage = {
        var pixels: [UInt8] = []
        for _ in 0..<40 {
            for x in 0..<60 { pixels += x < 30 ? [230, 20, 20] : [20, 20, 230] }
        }
        return PixelImage(width: 60, height: 40, pixelFormat: .rgb8, pixels: pixels)
    }()

    @Test func aHashDecodesToThePicturesLayoutColoursAndAspect() throws {
        // Given the hash of the red | blue halves
        let hash = try ThumbHash(encoding: Self.halves)

        // When it is decoded
        let decoded = hash.decoded()

        // Then the placeholder is landscape like the image, red on the left and blue on the right, opaque
        #expect(decoded.width == 32 && decoded.height < 32)
        let left = decoded.pixel(x: 3, y: decoded.height / 2)
        let right = decoded.pixel(x: decoded.width - 4, y: decoded.height / 2)
        #expect(left.r > 150 && left.b < 100, "\(left)")
        #expect(right.b > 150 && right.r < 100, "\(right)")
        #expect(left.a == 255 && right.a == 255)
        // And its average colour is the image's (purple), and it is 25 bytes or fewer
        let average = hash.averageColour
        #expect(abs(Int(average.r) - 125) <= 12 && abs(Int(average.b) - 125) <= 12 && average.g < 40, "\(average)")
        #expect(hash.bytes.count <= 25)
    }

    @Test func greyAndColourOfTheSameValuesGiveTheSameHash() throws {
        // Given a grey gradient as gray8 and as the same values in rgb8
        let values = (0..<(20 * 10)).map { UInt8($0 % 20 * 12) }
        let grey = PixelImage(width: 20, height: 10, pixelFormat: .gray8, pixels: values)
        let rgb = PixelImage(width: 20, height: 10, pixelFormat: .rgb8, pixels: values.flatMap { [$0, $0, $0] })

        // When / Then their hashes are equal
        #expect(try ThumbHash(encoding: grey) == ThumbHash(encoding: rgb))
    }

    @Test func anImageOverOneHundredPixelsIsRefusedWithAHint() {
        // Given a 101 × 10 image
        let image = PixelImage(width: 101, height: 10, pixelFormat: .gray8, pixels: [UInt8](repeating: 9, count: 1010))

        // When / Then encoding it is an invalid request that says to resize
        #expect {
            _ = try ThumbHash(encoding: image)
        } throws: { error in
            (error as? PinholeError)?.code == .invalidRequest && "\(error)".contains("resize first")
        }
    }

    @Test(arguments: [[], [1, 2, 3, 4], [0, 0, 0x80, 0, 0]] as [[UInt8]])
    func bytesTooFewForTheirHeaderAreRefused(bytes: [UInt8]) {
        // Given fewer than 5 bytes, or 5 that declare alpha (a sixth byte is needed)
        // When / Then they are not a ThumbHash
        #expect(throws: PinholeError.self) { try ThumbHash(bytes: bytes) }
    }

    @Test func aHashCutShortIsRefusedAndBase64GarbageIsNil() throws {
        // Given a real hash without its last byte, and strings that are not base64 hashes
        let hash = try ThumbHash(encoding: Self.halves)

        // When / Then
        #expect(throws: PinholeError.self) { try ThumbHash(bytes: Array(hash.bytes.dropLast())) }
        #expect(ThumbHash(base64: "not base64!") == nil)
        #expect(ThumbHash(base64: "AAAA") == nil)
        #expect(ThumbHash(base64: hash.base64) == hash)
    }

    /// How many random byte strings the hostile-bytes test reads: 20,000, or 2,000 under a sanitizer, where each
    /// decode costs 20 times more and the 20,000 held one of a 2-core machine's two cooperative threads for 150 s.
    static let hostileSamples = LoadFactor.isSanitizedRun ? 2_000 : 20_000

    @Test func anyBytesThatReadAsAHashDecodeToAnImageOfAtLeastOnePixel() {
        // Given 20,000 random byte strings of 5 to 40 bytes (a fixed seed), some with zero term counts
        var generator = SplitMix64(seed: 27)
        var decodedCount = 0
        for _ in 0..<Self.hostileSamples {
            let count = Int.random(in: 5...40, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // When each is read and, when it reads, decoded
            guard let hash = try? ThumbHash(bytes: bytes) else { continue }
            let image = hash.decoded()
            // Then the image is at most 32 px on each side and at least 1
            #expect(image.width >= 1 && image.width <= 32 && image.height >= 1 && image.height <= 32)
            decodedCount += 1
        }
        #expect(decodedCount > Self.hostileSamples / 20)
    }
}
