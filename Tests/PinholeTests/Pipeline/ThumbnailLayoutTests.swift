import PinholeTestSupport
import Testing

@testable import Pinhole

/// The geometry of content modes: the size an image is scaled to, the crop, and the upscaling rule.
@Suite(.timeLimit(scaledMinutes: 1))
struct ThumbnailLayoutTests {
    typealias Mode = ThumbnailOptions.ContentMode

    static func box(_ width: Int, _ height: Int, _ mode: Mode, up: Bool = false) -> ThumbnailOptions {
        ThumbnailOptions(size: PixelSize(width: width, height: height), contentMode: mode, allowsUpscaling: up)
    }

    @Test(arguments: [
        // source w, h; box w, h; resized w, h (fit)
        (4000, 3000, 200, 200, 200, 150), (4000, 3000, 300, 100, 133, 100), (3000, 4000, 200, 100, 75, 100),
        (4224, 3168, 200, 200, 200, 150), (4000, 1, 200, 200, 200, 1),
    ])
    func aspectFitStaysInsideTheBox(w: Int, h: Int, bw: Int, bh: Int, rw: Int, rh: Int) {
        // Given a box, When an image is fitted, Then it is inside the box with one side touching it, nothing cut
        let layout = Self.box(bw, bh, .aspectFit).layout(width: w, height: h)
        #expect(layout.resized == PixelSize(width: rw, height: rh))
        #expect(layout.output == layout.resized)
        #expect(layout.crop == nil)
    }

    @Test(arguments: [
        (4000, 3000, 200, 200, 267, 200), (4000, 3000, 300, 100, 300, 225), (3000, 4000, 200, 100, 200, 267),
        (4224, 3168, 200, 200, 267, 200), (400, 300, 200, 200, 267, 200),
    ])
    func aspectFillCoversTheBoxWithoutCutting(w: Int, h: Int, bw: Int, bh: Int, rw: Int, rh: Int) {
        // Given a box, When an image fills it, Then it covers the box (one side equal) and nothing is cut
        let layout = Self.box(bw, bh, .aspectFill).layout(width: w, height: h)
        #expect(layout.resized == PixelSize(width: rw, height: rh))
        #expect(layout.output == layout.resized)
        #expect(layout.crop == nil)
    }

    @Test(arguments: ThumbnailOptions.Crop.allCases)
    func fillWithCropGivesExactlyTheBox(crop: ThumbnailOptions.Crop) {
        // Given a 4000×3000 image and a 200×200 box, When filled with a crop
        let layout = Self.box(200, 200, .fill(crop: crop)).layout(width: 4000, height: 3000)
        // Then it is scaled to cover (267×200) and cut to exactly 200×200 at the asked anchor
        #expect(layout.resized == PixelSize(width: 267, height: 200))
        #expect(layout.output == PixelSize(width: 200, height: 200))
        #expect(layout.crop == crop)
        // And a box whose aspect matches the image's needs no cut
        #expect(Self.box(400, 300, .fill(crop: crop)).layout(width: 4000, height: 3000).crop == nil)
    }

    @Test func neverUpscalesUnlessAsked() {
        // Given a 40×30 image and a 200×200 box
        // When fitted or filled without upscaling, Then it keeps its size
        #expect(Self.box(200, 200, .aspectFit).fittedSize(width: 40, height: 30) == PixelSize(width: 40, height: 30))
        #expect(Self.box(200, 200, .aspectFill).fittedSize(width: 40, height: 30) == PixelSize(width: 40, height: 30))
        // And a crop keeps the box's aspect ratio at the image's own scale
        let cropped = Self.box(200, 200, .fill(crop: .centre)).layout(width: 40, height: 30)
        #expect(cropped.resized == PixelSize(width: 40, height: 30))
        #expect(cropped.output == PixelSize(width: 30, height: 30))
        #expect(
            Self.box(200, 100, .fill(crop: .centre)).fittedSize(width: 300, height: 100)
                == PixelSize(width: 200, height: 100))
        #expect(
            Self.box(200, 200, .fill(crop: .centre)).fittedSize(width: 300, height: 100)
                == PixelSize(width: 100, height: 100))
        // When upscaling is allowed, Then each mode meets the box
        #expect(
            Self.box(200, 200, .aspectFit, up: true).fittedSize(width: 40, height: 30)
                == PixelSize(width: 200, height: 150))
        #expect(
            Self.box(200, 200, .aspectFill, up: true).fittedSize(width: 40, height: 30)
                == PixelSize(width: 267, height: 200))
        #expect(
            Self.box(200, 200, .fill(crop: .centre), up: true).fittedSize(width: 40, height: 30)
                == PixelSize(width: 200, height: 200))
    }

    @Test func pointsTimesScaleArePixels() {
        // Given a box of 100×50 points at 2× and at 3×
        let twice = ThumbnailOptions(width: 100, height: 50, scale: 2, contentMode: .fill(crop: .attention))
        let thrice = ThumbnailOptions(width: 100.4, height: 50, scale: 3)
        // Then the box is in pixels, rounded to the nearest
        #expect(twice.size == PixelSize(width: 200, height: 100))
        #expect(twice.contentMode == .fill(crop: .attention))
        #expect(thrice.size == PixelSize(width: 301, height: 150))
        // And the same pixels from other points are the same thumbnail (the cache key is in pixels)
        #expect(ThumbnailOptions(width: 200, height: 100, contentMode: .fill(crop: .attention)) == twice)
    }

    @Test func maxPixelSizeIsASquareFitBox() {
        // Given the longest-side form
        var options = ThumbnailOptions(maxPixelSize: 360)
        // Then it is a 360×360 fit box, described as before
        #expect(options.size == PixelSize(width: 360, height: 360))
        #expect(options.contentMode == .aspectFit)
        #expect(options.description == "360px")
        // When the convenience is set, Then the box follows
        options.maxPixelSize = 120
        #expect(options.size == PixelSize(width: 120, height: 120))
        #expect(
            ThumbnailOptions(size: PixelSize(width: 300, height: 100), contentMode: .fill(crop: .centre)).maxPixelSize
                == 300)
    }

    @Test func everyModeIsADifferentImageKey() {
        // Given one box in every mode
        let modes: [Mode] = [.aspectFit, .aspectFill] + ThumbnailOptions.Crop.allCases.map { .fill(crop: $0) }
        let keys = modes.map { ImageKey(sourceKey: "k", thumbnail: Self.box(200, 200, $0)) }
        // Then no two share a key or a description
        #expect(Set(keys).count == modes.count)
        #expect(Set(keys.map(\.description)).count == modes.count)
    }

    @Test func hugeFillBoxWithUpscalingDoesNotOverflow() {
        // Given a box near Int.max that a 3×2 image must cover
        let layout = Self.box(Int.max - 1, Int.max - 1, .fill(crop: .centre), up: true).layout(width: 3, height: 2)
        // Then sides are capped (the decoder's pixel limit then refuses the result) and nothing traps
        #expect(layout.resized.width >= 1 && layout.resized.height >= 1)
    }
}
