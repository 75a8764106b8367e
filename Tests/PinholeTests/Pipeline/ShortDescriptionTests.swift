import Foundation
import Testing

@testable import Pinhole

/// Printing an image, a response, a task event or a slot phase gives a line about it, never its pixels nor the
/// request's headers.
@MainActor
struct ShortDescriptionTests {
    /// A 360 × 240 grey response of a 4000 × 3000 JPEG, asked with a secret header.
    static let response: ImageResponse = {
        let image = PixelImage(
            width: 360, height: 240, pixelFormat: .rgb8, pixels: [UInt8](repeating: 77, count: 360 * 240 * 3))
        let request = ImageRequest(
            url: URL(string: "https://example.com/a.jpg")!, thumbnail: ThumbnailOptions(maxPixelSize: 360),
            headers: ["Authorization": "Bearer secret-token"])
        return ImageResponse(
            image: image, info: DecodedImage.SourceInfo(format: .jpeg, width: 4000, height: 3000, orientation: 6),
            source: .network, request: request)
    }()

    @Test func anImageAndAResponseDescribeTheirSizesFormatAndSource() {
        // Given the response
        let response = Self.response

        // When they are printed
        let image = "\(response.image)"
        let text = "\(response)"

        // Then each is one short line with what matters
        #expect(image == "360×240 rgb8")
        #expect(text == "360×240 rgb8 of jpeg 4000×3000, orientation 6 from network: https://example.com/a.jpg")
    }

    @Test func everyWayOfPrintingStaysShortAndShowsNoPixelsNorHeaders() {
        // Given the response wrapped in each thing an app prints
        let response = Self.response
        let printed: [String] = [
            String(describing: response), String(reflecting: response), "\(Optional(response) as Any)",
            "\([response])", "\(ImageSlot.Phase.success(response))",
            String(reflecting: ImageSlot.Phase.success(response)),
            "\(ImageTask.Event.finished(.success(response)))", "\(ImageTask.Event.preview(response))",
            String(reflecting: DecodedImage(image: response.image, info: response.info)), "\([response.image])",
            String(reflecting: response.image),
        ]

        // When / Then none is longer than a line, none has the pixels' value, none has the header's secret
        for text in printed {
            #expect(text.count < 200, "\(text.prefix(300))")
            #expect(!text.contains("77, 77"), "\(text.prefix(300))")
            #expect(!text.contains("secret"), "\(text)")
        }
    }

    @Test func aDataURLIsCutInTheDescription() {
        // Given a response for a data: URL of 10,000 characters
        var response = Self.response
        response.request = ImageRequest(
            url: URL(string: "data:image/png;base64," + String(repeating: "A", count: 10_000))!)

        // When it is printed
        let text = "\(response)"

        // Then the URL is cut to 120 characters and marked
        #expect(text.count < 200)
        #expect(text.hasSuffix("…"))
    }

    @Test func aPhaseGivesItsImageInSuccessOnly() {
        // Given the phases a slot goes through
        let response = Self.response

        // When / Then only success has an image, the response's
        #expect(ImageSlot.Phase.success(response).image == response.image)
        #expect(ImageSlot.Phase.loading.image == nil)
        #expect(ImageSlot.Phase.empty.image == nil)
        #expect(ImageSlot.Phase.failure(PinholeError(.httpStatus, "404")).image == nil)
        #expect("\(ImageSlot.Phase.loading)" == "loading")
    }

    @Test func centerIsCentreWithTheSameIdentity() {
        // Given two requests that differ only in the spelling of the crop
        let url = URL(string: "https://example.com/a.jpg")!
        let american = ImageRequest(
            url: url,
            thumbnail: ThumbnailOptions(size: PixelSize(width: 100, height: 100), contentMode: .fill(crop: .center)))
        let british = ImageRequest(
            url: url,
            thumbnail: ThumbnailOptions(size: PixelSize(width: 100, height: 100), contentMode: .fill(crop: .centre)))

        // When / Then they are the same crop and the same image
        #expect(ThumbnailOptions.Crop.center == .centre)
        #expect(american.imageKey == british.imageKey)
    }
}
