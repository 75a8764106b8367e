import CChafa
import Pinhole

/// The pixels handed to libchafa: the rectangle of a ``PixelImage`` to draw, copied row by row into a buffer
/// libchafa 1.12 reads correctly. No pixel is resampled here: libchafa scales the rectangle to the canvas.
///
/// Why a copy: libchafa 1.12's scaler misreads rows whose stride is not a multiple of 4 bytes (an RGB image
/// 306 pixels wide came out as grey horizontal stripes in sixel output; fixed upstream after 1.12.4 in
/// "smolscale: Fix bad output when rowstride is not a multiple of 4", hpjansson/chafa 3843ac7, and unaligned
/// input in 3874e2a). So RGB rows are padded to a multiple of 4 bytes and every buffer starts aligned; grey is
/// spread to RGB (libchafa has no grey layout); RGBA keeps its straight alpha.
struct ChafaSource {
    private let image: PixelImage
    private(set) var x = 0
    private(set) var y = 0
    private(set) var width: Int
    private(set) var height: Int

    init(_ image: PixelImage) {
        self.image = image
        self.width = image.width
        self.height = image.height
    }

    /// Narrows the rectangle to the centred part with `aspect` = width / height (each side ≥ 1 pixel).
    mutating func crop(toAspect aspect: Double) {
        guard aspect > 0 else { return }
        if Double(width) / Double(height) > aspect {
            let cropped = min(width, max(1, Int((Double(height) * aspect).rounded())))
            x += (width - cropped) / 2
            width = cropped
        } else {
            let cropped = min(height, max(1, Int((Double(width) / aspect).rounded())))
            y += (height - cropped) / 2
            height = cropped
        }
    }

    /// Calls `body` with libchafa's pixel type, the rectangle's first pixel, its size and the row stride in bytes
    /// (a multiple of 4).
    func withPixels(_ body: (ChafaPixelType, UnsafePointer<UInt8>, Int, Int, Int) -> Void) {
        let hasAlpha = image.pixelFormat == .rgba8
        let channels = hasAlpha ? 4 : 3
        let stride = (width * channels + 3) / 4 * 4
        var buffer = [UInt8](repeating: 0, count: stride * height)
        let sourceChannels = image.pixelFormat.bytesPerPixel
        image.pixels.withUnsafeBufferPointer { source in
            buffer.withUnsafeMutableBufferPointer { target in
                for row in 0..<height {
                    let from = (y + row) * image.bytesPerRow + x * sourceChannels
                    let to = row * stride
                    if sourceChannels == channels, let into = target.baseAddress, let start = source.baseAddress {
                        (into + to).update(from: start + from, count: width * channels)
                    } else {
                        for column in 0..<width {
                            let value = source[from + column]
                            target[to + column * 3] = value
                            target[to + column * 3 + 1] = value
                            target[to + column * 3 + 2] = value
                        }
                    }
                }
            }
        }
        let type: ChafaPixelType = hasAlpha ? CHAFA_PIXEL_RGBA8_UNASSOCIATED : CHAFA_PIXEL_RGB8
        buffer.withUnsafeBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            body(type, base, width, height, stride)
        }
    }
}
