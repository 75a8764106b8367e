import PinholeTestSupport
import Testing

@testable import Pinhole

@Suite(.timeLimit(scaledMinutes: 1))
struct ThumbnailOptionsTests {
    @Test(arguments: [
        (4000, 3000, 360, 360, 270), (3000, 4000, 360, 270, 360), (40, 30, 256, 40, 30),
        (4000, 1, 256, 256, 1), (1, 1, 256, 1, 1), (1001, 333, 50, 50, 17),
    ])
    func fitsTheLongestSideKeepingAspectAndNeverUpscaling(w: Int, h: Int, box: Int, ew: Int, eh: Int) {
        let size = ThumbnailOptions(maxPixelSize: box).fittedSize(width: w, height: h)
        #expect(size == PixelSize(width: ew, height: eh))
    }

    @Test func upscalesOnlyWhenAsked() {
        #expect(
            ThumbnailOptions(maxPixelSize: 80, allowsUpscaling: true).fittedSize(width: 40, height: 30)
                == PixelSize(width: 80, height: 60))
    }

    @Test func hugeBoxWithUpscalingDoesNotOverflow() {
        let size = ThumbnailOptions(maxPixelSize: Int.max - 1, allowsUpscaling: true).fittedSize(width: 3, height: 2)
        #expect(size.width >= 1 && size.height >= 1)
    }

    @Test func sizeBelowOneIsTreatedAsOne() {
        #expect(ThumbnailOptions(maxPixelSize: 0).maxPixelSize == 1)
    }
}
