import Foundation
import Pinhole
import PinholeTestSupport
import Testing

@testable import pinhole

/// Parsing of `--width/--height/--fit/--fill/--crop/--scale/--header/--offline` into the requests the command makes.
@Suite(.timeLimit(scaledMinutes: 1))
struct ThumbnailRequestFlagsTests {
    typealias Configuration = ThumbnailCommand.Configuration
    static let url = URL(string: "https://images.example/a.jpg")!

    @Test func aFilledCroppedBoxWithScaleAndHeaders() throws {
        // When a box, fill, crop, scale and two headers are given
        let configuration = try Configuration.parse([
            "https://images.example/a.jpg", "--width", "100", "--height", "50", "--fill", "--crop", "attention",
            "--scale", "2", "--header", "Authorization: Bearer x", "--header=Accept: image/webp",
        ])
        let request = configuration.request.request(for: Self.url, size: configuration.size)
        // Then the request asks exactly 200×100 pixels, filled and cropped at attention, with both headers
        #expect(
            request.thumbnail
                == ThumbnailOptions(size: PixelSize(width: 200, height: 100), contentMode: .fill(crop: .attention)))
        #expect(request.headers == ["Authorization": "Bearer x", "Accept": "image/webp"])
        #expect(request.options.isEmpty)
        #expect(configuration.size == 200)
        #expect(configuration.request.nameLabel(size: configuration.size) == "200x100-fill-attention.")
    }

    @Test func theDefaultsAreASquareFitOfSize() throws {
        let configuration = try Configuration.parse(["a.jpg", "--size", "120", "--scale", "1.5"])
        let request = configuration.request.request(for: Self.url, size: configuration.size)
        #expect(request.thumbnail == ThumbnailOptions(maxPixelSize: 180))
        #expect(request.headers.isEmpty && configuration.request.nameLabel(size: configuration.size).isEmpty)
        // --fill without a crop covers the box; one side alone fits to it
        let fill = try Configuration.parse(["a", "--width", "30", "--height", "20", "--fill"])
        #expect(fill.request.thumbnail(size: fill.size).contentMode == .aspectFill)
        let wide = try Configuration.parse(["a", "--width", "300"])
        #expect(
            wide.request.thumbnail(size: wide.size).layout(width: 4000, height: 3000).output
                == PixelSize(width: 300, height: 225))
        // --offline asks the caches only
        let offline = try Configuration.parse(["a", "--offline", "--cache-dir", "c"])
        #expect(offline.request.request(for: Self.url, size: offline.size).options == [.returnCacheDataDontLoad])
    }

    @Test(arguments: [
        ["a", "--crop", "attention"], ["a", "--fill"], ["a", "--width", "10", "--fill"], ["a", "--fit", "--fill"],
        ["a", "--size", "10", "--width", "10"], ["a", "--scale", "0"], ["a", "--scale", "x"],
        ["a", "--header", "no colon"], ["a", "--offline"], ["a", "--width", "0"],
        ["a", "--width", "10", "--height", "10", "--fill", "--crop", "left"],
    ])
    func contradictoryOrBadFlagsAreUsageErrors(arguments: [String]) {
        #expect(throws: UsageError.self) { _ = try Configuration.parse(arguments) }
    }
}
