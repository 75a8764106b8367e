import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// A request that carries a ThumbHash gives its slot a placeholder to draw while it loads.
@MainActor
@Suite(.timeLimit(scaledMinutes: 1))
struct ImageSlotPlaceholderTests {
    /// The hash of a 40 × 20 image, red on the left half and blue on the right.
    static let hash: ThumbHash = {
        var pixels: [UInt8] = []
        for _ in 0..<20 {
            for x in 0..<40 { pixels += x < 20 ? [230, 20, 20] : [20, 20, 230] }
        }
        return try! ThumbHash(encoding: PixelImage(width: 40, height: 20, pixelFormat: .rgb8, pixels: pixels))
    }()

    @Test func theSlotShowsTheRequestsPlaceholderWhileLoadingAndDropsItWithTheRequest() async throws {
        // Given a slot and a request with a ThumbHash whose load waits at the loader
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }
        let slot = ImageSlot(pipeline: fixture.pipeline)
        let url = PipelineFixture.url("with-placeholder.jpg")
        var request = ImageRequest(url: url, maxPixelSize: 32)
        request.placeholder = Self.hash

        // When it is loaded
        slot.load(request)

        // Then, while loading, the placeholder is the hash's picture
        #expect(slot.phase.isLoading)
        #expect(slot.placeholder == Self.hash.decoded())
        try #require(await eventually { fixture.loader.waitingURLs == [url] })
        // And a request without one (another row) has none, nor has the slot after load(nil)
        slot.load(ImageRequest(url: PipelineFixture.url("without.jpg"), maxPixelSize: 32))
        #expect(slot.placeholder == nil)
        slot.load(request)
        #expect(slot.placeholder != nil)
        slot.load(nil)
        #expect(slot.placeholder == nil)
    }

    @Test func thePlaceholderIsNoPartOfTheIdentity() {
        // Given two requests that differ only in their placeholder
        let url = PipelineFixture.url("same.jpg")
        let plain = ImageRequest(url: url, maxPixelSize: 32)
        var withHash = plain
        withHash.placeholder = Self.hash

        // When / Then they name the same image and the same job, and are not equal values
        #expect(plain.imageKey == withHash.imageKey)
        #expect(plain.sourceKey == withHash.sourceKey)
        #expect(plain != withHash)
    }

    @Test func anImageInMemoryIsShownWithoutAPlaceholder() async throws {
        // Given an image already in the memory cache
        let fixture = PipelineFixture()
        fixture.loader.releaseAutomatically()
        let url = PipelineFixture.url("cached.jpg")
        var request = ImageRequest(url: url, maxPixelSize: 32)
        _ = try await fixture.pipeline.image(for: request)
        request.placeholder = Self.hash

        // When a slot loads it with a placeholder
        let slot = ImageSlot(pipeline: fixture.pipeline)
        slot.load(request)

        // Then it shows the image at once and decodes no placeholder
        #expect(slot.phase.image.map { FakeImage.isImage($0, of: url) } == true)
        #expect(slot.placeholder == nil)
    }
}
