import Foundation
import Pinhole
import PinholeShared
import Synchronization

@testable import pinhole

/// Codecs that need no libvips: the decoder reads the size from a tiny text header and counts how many
/// decodes run at once; the encoder writes the size as text.
///
/// Fake image format: `"\u{89}PNG\r\n\u{1A}\n"` (a PNG signature, so sniffing sees an image) followed by
/// `"WxH"`, or by `"TRUNCATED"` to fail with ``PinholeError/Code/truncated``.
final class FakeCodecs: ImageDecoding, ImageEncoding {
    private struct State {
        var inFlight = 0
        var maxInFlight = 0
        var decodes = 0
        var decodeOrder: [String] = []
    }

    private let state = Locked(State())
    /// How long each decode takes (to let decodes overlap).
    let decodeDuration: Duration

    init(decodeDuration: Duration = .milliseconds(20)) {
        self.decodeDuration = decodeDuration
    }

    /// The most decodes that ever ran at the same time.
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }
    /// Decodes started.
    var decodes: Int { state.withLock { $0.decodes } }
    /// The header text (`"WxH"`, or `"TRUNCATED"`) of each decode, in the order they started.
    var decodeOrder: [String] { state.withLock { $0.decodeOrder } }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A fake image of `width × height` pixels.
    static func image(width: Int, height: Int) -> Data {
        Data(signature + Array("\(width)x\(height)".utf8))
    }

    /// A fake image whose decode fails as truncated.
    /// (Computed: a `Data` held in a global hides its buffer pointer from LeakSanitizer, which then reports it.)
    static var truncated: Data { Data(signature + Array("TRUNCATED".utf8)) }

    func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage {
        let text = String(decoding: data.dropFirst(Self.signature.count), as: UTF8.self)
        state.withLock {
            $0.decodeOrder.append(text)
            $0.inFlight += 1
            $0.decodes += 1
            $0.maxInFlight = max($0.maxInFlight, $0.inFlight)
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        try await Task.sleep(for: decodeDuration)
        let parts = text.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2 else { throw PinholeError(.truncated, "the data ends before the image does") }
        let box = options.thumbnail ?? ThumbnailOptions(maxPixelSize: Int.max)
        let size = box.fittedSize(width: parts[0], height: parts[1])
        let image = PixelImage(
            width: size.width, height: size.height, pixelFormat: .gray8,
            pixels: [UInt8](repeating: 128, count: size.width * size.height))
        return DecodedImage(image: image, info: .init(format: .png, width: parts[0], height: parts[1]))
    }

    func encode(_ image: PixelImage, options: EncodingOptions) async throws -> Data {
        Data("\(options.format.name) \(image.width)x\(image.height) q\(options.quality)".utf8)
    }

    /// The codecs for ``ThumbnailCommand``; the contact sheet is one row of the images' cells.
    var codecs: ThumbnailCommand.Codecs {
        ThumbnailCommand.Codecs(decoder: self, encoder: self) { images, cellSize in
            PixelImage(
                width: cellSize * images.count, height: cellSize, pixelFormat: .gray8,
                pixels: [UInt8](repeating: 255, count: cellSize * images.count * cellSize))
        }
    }
}
