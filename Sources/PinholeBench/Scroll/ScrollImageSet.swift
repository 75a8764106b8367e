import Foundation
public import Pinhole
import PinholeVips

/// The pictures behind the scroll reproduction's images: squares made from the real-photo corpus.
///
/// Each photo is thumbnailed so that its *short* side is ``side`` pixels (shrink-on-load) and centre-cropped to
/// ``side`` × ``side``, all on ``WorkerThreadPool/cpu`` (never on the main actor). Without a corpus, flat-colour
/// squares with a gradient are made instead (``origin`` says which). The server serves row `k` as square
/// `k % count` with the row's ``ScrollImageCode`` painted in (``CodedImages``).
public struct ScrollImageSet: Sendable {
    /// The squares (8-bit RGB), in order.
    public let squares: [PixelImage]
    /// Where the pixels came from, for the report.
    public let origin: String
    /// The side of every image in pixels.
    public let side: Int

    /// Makes `count` images of `side` × `side` pixels from the JPEG photos of `corpus` (sorted by name).
    ///
    /// - Throws: ``PinholeError`` when a photo cannot be read or decoded; `CancellationError`.
    public static func make(count: Int = 24, side: Int = 600, corpus: String?) async throws -> ScrollImageSet {
        let files = try await WorkerThreadPool.io.run { photoFiles(in: corpus) }
        let decoder = VipsDecoder(pool: .cpu)
        guard !files.isEmpty else {
            let squares = (0..<max(1, count)).map { synthetic(index: $0, side: side) }
            return ScrollImageSet(squares: squares, origin: "synthetic (no corpus found)", side: side)
        }
        let chosen = (0..<max(1, count)).map { files[$0 % files.count] }
        let squares = try await withThrowingTaskGroup(of: (Int, PixelImage).self) { group in
            for (index, file) in chosen.enumerated() {
                group.addTask {
                    let data = try await WorkerThreadPool.io.run { () throws -> Data in
                        guard let data = FileManager.default.contents(atPath: file) else {
                            throw PinholeError(.fileNotFound, "cannot read \(file)")
                        }
                        return data
                    }
                    let info = try await decoder.readInfo(data)
                    let shortSide = max(1, min(info.width, info.height))
                    let longSide = max(info.width, info.height)
                    let box = (longSide * side + shortSide - 1) / shortSide
                    let decoded = try await decoder.decode(
                        data, options: DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: box)))
                    return (index, centreCrop(decoded.image, side: side))
                }
            }
            var results: [PixelImage?] = Array(repeating: nil, count: chosen.count)
            for try await (index, square) in group { results[index] = square }
            return results.compactMap { $0 }
        }
        let directory = corpus ?? ""
        return ScrollImageSet(squares: squares, origin: "\(Set(chosen).count) photos of \(directory)", side: side)
    }

    /// JPEG photos of `corpus`, sorted by name; empty when the directory is missing.
    static func photoFiles(in corpus: String?) -> [String] {
        guard let corpus, let names = try? FileManager.default.contentsOfDirectory(atPath: corpus) else { return [] }
        return names.filter { $0.lowercased().hasSuffix(".jpg") || $0.lowercased().hasSuffix(".jpeg") }
            .sorted().map { corpus + "/" + $0 }
    }

    /// The centre `side` × `side` pixels of `image` (smaller when the image is), as 8-bit RGB.
    static func centreCrop(_ image: PixelImage, side: Int) -> PixelImage {
        let width = min(side, image.width)
        let height = min(side, image.height)
        let x0 = (image.width - width) / 2
        let y0 = (image.height - height) / 2
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for y in y0..<(y0 + height) {
            for x in x0..<(x0 + width) {
                let pixel = image.pixel(x: x, y: y)
                pixels.append(contentsOf: [pixel.r, pixel.g, pixel.b])
            }
        }
        return PixelImage(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }

    /// A distinct colour square with a horizontal gradient, for machines without the corpus.
    static func synthetic(index: Int, side: Int) -> PixelImage {
        let hue = UInt8(truncatingIfNeeded: index * 53)
        var pixels = [UInt8](repeating: 0, count: side * side * 3)
        for y in 0..<side {
            for x in 0..<side {
                let offset = (y * side + x) * 3
                pixels[offset] = hue
                pixels[offset + 1] = UInt8(truncatingIfNeeded: x * 255 / max(1, side - 1))
                pixels[offset + 2] = UInt8(truncatingIfNeeded: index * 97 + y / 8)
            }
        }
        return PixelImage(width: side, height: side, pixelFormat: .rgb8, pixels: pixels)
    }
}
