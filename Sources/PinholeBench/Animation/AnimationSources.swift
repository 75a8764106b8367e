import Foundation
import Pinhole
import PinholeShared
import PinholeVips

/// The animated sources `pinhole bench animation` plays: each a slow pan across one real photo of the corpus,
/// made here with libvips (the photo shrunk to ``sourceSide`` pixels on its longest side, a window of two thirds
/// of it moved from the top-left to the bottom-right corner over the frames), written as GIF and animated WebP
/// in turn.
struct AnimationSources: Sendable {
    /// One source: its name (the photo's and the format's) and its encoded bytes.
    struct Source: Sendable {
        var name: String
        var format: ImageFormat
        var data: Data
    }

    var corpus: String
    var count: Int
    var frames: Int
    var frameDuration: Duration
    /// The longest side the photo is shrunk to before the window pans across it, in pixels.
    var sourceSide = 480

    /// The corpus' JPEGs, sorted by name, the first `count` of them; throws when there are fewer. Blocking.
    func photos() throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []
        let photos = names.filter { $0.hasSuffix(".jpg") && !$0.contains("cmyk") }.sorted().prefix(count)
        guard photos.count == count else {
            throw PinholeError(
                .fileNotFound,
                "\(corpus) holds \(photos.count) JPEG photos, not \(count): build it with scripts/make-corpus.sh")
        }
        return photos.map { corpus + "/" + $0 }
    }

    /// Makes every source (even ones GIF, odd ones WebP); `progress` gets a line each.
    func make(progress: (String) -> Void) async throws -> [Source] {
        let decoder = VipsDecoder()
        let encoder = VipsEncoder()
        var sources: [Source] = []
        let paths = try await WorkerThreadPool.io.run { try photos() }  // a directory listing: blocking
        for (index, path) in paths.enumerated() {
            let data = try await WorkerThreadPool.io.run { try Data(contentsOf: URL(fileURLWithPath: path)) }
            let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: sourceSide))
            let photo = try await decoder.decode(data, options: options).image
            let pan = Self.pan(across: photo, frames: frames)
            let format: ImageFormat = index.isMultiple(of: 2) ? .gif : .webp
            let encoded = try await encoder.encodeAnimation(
                pan, durations: Array(repeating: frameDuration, count: frames), loopCount: 0,
                options: EncodingOptions(format: format, quality: 75))
            let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension + "." + format.name
            progress("made \(name): \(frames) frames, \(encoded.count / 1024) KB")
            sources.append(Source(name: name, format: format, data: encoded))
        }
        return sources
    }

    /// `frames` windows of two thirds of `photo`'s width and height, moved evenly from its top-left corner to its
    /// bottom-right one.
    static func pan(across photo: PixelImage, frames: Int) -> [PixelImage] {
        let (width, height) = (photo.width * 2 / 3, photo.height * 2 / 3)
        let bytesPerPixel = photo.pixelFormat.bytesPerPixel
        return (0..<frames).map { frame in
            let step = Double(frame) / Double(max(1, frames - 1))
            let left = Int(Double(photo.width - width) * step)
            let top = Int(Double(photo.height - height) * step)
            var pixels: [UInt8] = []
            pixels.reserveCapacity(width * height * bytesPerPixel)
            for row in top..<top + height {
                let start = row * photo.bytesPerRow + left * bytesPerPixel
                pixels.append(contentsOf: photo.pixels[start..<start + width * bytesPerPixel])
            }
            return PixelImage(width: width, height: height, pixelFormat: photo.pixelFormat, pixels: pixels)
        }
    }
}
