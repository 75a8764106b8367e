import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// Real photographs (built by `make corpus`), thumbnailed at 360 px and compared with a recorded reference:
/// size plus a 4×4 grid of mean colours. Re-record with `PINHOLE_RECORD=1` (the test then fails to say so).
@Suite(.timeLimit(scaledMinutes: 2))
struct CorpusTests {
    static let photos = [
        "friends-6mp-exif-rot6.jpg", "kde-colorfulcups-4mp-cmyk.jpg", "kde-eveningglow-4mp.webp",
        "kde-kite-4mp.png", "kde-path-4mp-progressive.jpg", "kde-grey-4mp.jpg", "sunset-12mp.jpg",
    ]
    static let maxPixelSize = 360
    /// Largest allowed difference of a cell's mean, per channel, 0…255.
    static let tolerance = 6.0

    static let corpus: URL = {
        if let path = ProcessInfo.processInfo.environment["PINHOLE_CORPUS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/pinhole/corpus")
    }()
    static let referenceURL = Fixtures.root.appendingPathComponent("corpus-reference.json")

    struct Reference: Codable, Equatable {
        var width: Int
        var height: Int
        /// 16 cells, row by row; each the mean [r, g, b].
        var grid: [[Double]]
    }

    /// The 4×4 grid of mean colours of `image`.
    static func grid(_ image: PixelImage) -> [[Double]] {
        var cells: [[Double]] = []
        for row in 0..<4 {
            for column in 0..<4 {
                var sum = [0.0, 0.0, 0.0]
                var count = 0.0
                for y in (row * image.height / 4)..<max(row * image.height / 4 + 1, (row + 1) * image.height / 4) {
                    for x
                        in (column * image.width / 4)..<max(
                            column * image.width / 4 + 1, (column + 1) * image.width / 4)
                    {
                        let pixel = image.pixel(x: x, y: y)
                        sum[0] += Double(pixel.r)
                        sum[1] += Double(pixel.g)
                        sum[2] += Double(pixel.b)
                        count += 1
                    }
                }
                cells.append(sum.map { ($0 / count * 10).rounded() / 10 })
            }
        }
        return cells
    }

    static func thumbnail(_ file: String) async throws -> DecodedImage {
        let url = corpus.appendingPathComponent(file)
        try #require(
            FileManager.default.fileExists(atPath: url.path),
            "no photo corpus at \(corpus.path): run `make corpus` (or set PINHOLE_CORPUS)")
        let data = try await Fixtures.read(url)
        return try await VipsDecoder().decode(
            data, options: DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: maxPixelSize)))
    }

    static func largestDifference(_ a: [[Double]], _ b: [[Double]]) -> Double {
        zip(a, b).flatMap { zip($0, $1).map { abs($0 - $1) } }.max() ?? .infinity
    }

    @Test func thumbnailsMatchTheRecordedReference() async throws {
        // Given the photos and (unless recording) the reference
        var measured: [String: Reference] = [:]
        for file in Self.photos {
            // When each is thumbnailed to 360 px
            let decoded = try await Self.thumbnail(file)
            let fitted = ThumbnailOptions(maxPixelSize: Self.maxPixelSize)
                .fittedSize(width: decoded.info.width, height: decoded.info.height)
            #expect(decoded.image.width == fitted.width && decoded.image.height == fitted.height, "\(file)")
            measured[file] = Reference(
                width: decoded.image.width, height: decoded.image.height, grid: Self.grid(decoded.image))
        }

        if ProcessInfo.processInfo.environment["PINHOLE_RECORD"] == "1" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let json = try encoder.encode(measured)
            try await WorkerThreadPool.io.run { try json.write(to: Self.referenceURL) }
            Issue.record("recorded \(measured.count) references into \(Self.referenceURL.path); run again to compare")
            return
        }

        // Then size and grid colours match the reference
        let json = try await Fixtures.read(Self.referenceURL)
        let reference = try JSONDecoder().decode([String: Reference].self, from: json)
        for file in Self.photos {
            let want = try #require(reference[file], "no reference for \(file): record with PINHOLE_RECORD=1")
            let got = try #require(measured[file])
            #expect(got.width == want.width && got.height == want.height, "\(file)")
            let worst = Self.largestDifference(got.grid, want.grid)
            #expect(worst <= Self.tolerance, "\(file): grid differs by \(worst)/255")
        }
    }

    @Test func rotatedPhotoComesOutPortrait() async throws {
        // Given a 3088×2048 landscape-stored photo tagged with EXIF orientation 6
        // When thumbnailed, Then it is portrait, 240×360
        let decoded = try await Self.thumbnail("friends-6mp-exif-rot6.jpg")
        #expect(decoded.info.orientation == 6)
        #expect(
            (decoded.image.width, decoded.image.height) == (239, 360)
                || (decoded.image.width, decoded.image.height) == (240, 360))
    }

    @Test(arguments: [
        // ImageMagick's naive `-colorspace CMYK` made this file; it is read back through libvips' fallback CMYK
        // profile, so colours differ a little (measured 17/255), far less than an inverted or raw-CMYK read (> 100).
        ("kde-colorfulcups-4mp-cmyk.jpg", "kde-colorfulcups-4mp.jpg", 24.0),
        ("kde-path-4mp-progressive.jpg", "kde-path-4mp.jpg", 4.0),
        ("kde-kite-4mp.png", "kde-kite-4mp.jpg", 4.0),
        ("kde-eveningglow-4mp.webp", "kde-eveningglow-4mp.jpg", 6.0),
    ])
    func variantsOfOnePhotoLookAlike(variant: String, original: String, tolerance: Double) async throws {
        // Given a photo and a re-encoded variant of it (CMYK, progressive, PNG, WebP)
        // When both are thumbnailed
        let a = try await Self.thumbnail(variant)
        let b = try await Self.thumbnail(original)

        // Then they have the same size and nearly the same colours (CMYK went through a profile round trip)
        #expect((a.image.width, a.image.height) == (b.image.width, b.image.height))
        let worst = Self.largestDifference(Self.grid(a.image), Self.grid(b.image))
        #expect(worst <= tolerance, "\(variant) vs \(original): \(worst)/255")
    }
}
