import Foundation
import Pinhole
import PinholeGallery
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// `pinhole gallery --server`: every picture is asked of the thumbnail server at the box it is drawn in.
@Suite(.timeLimit(scaledMinutes: 1))
@MainActor
struct FeedScreenModelServerTests {
    @Test func withAThumbnailServerEachRowAndTheFullViewAskForTheirExactBox() async {
        // Given a 60-item list whose image URLs are rewritten to a server URL naming the box
        let (loader, _) = GalleryFixture.countingLoader(GalleryFixture.feedData(count: 60, imagePrefix: "ok"))
        let model = FeedScreenModel(
            feedURL: GalleryFixture.feedURL, loader: loader,
            pipeline: GalleryFixture.pipeline(GalleryFixture.imageLoader()),
            favouritesStore: nil, locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC")!,
            size: TerminalSize(columns: 120, rows: 40), layoutMode: .list)
        model.thumbnailURL = { source, box in
            URL(string: "http://thumbs.test/\(box.size.width)x\(box.size.height)/\(source.lastPathComponent)")
        }
        // When the feed loads and the first item is opened
        await model.load()
        let row = model.slot(forRow: 0)?.request
        // Then the row asks the server for the list's box (140 px on its longest side), and keeps that box
        let box = model.layout.thumbnailOptions
        #expect(box.maxPixelSize == 140)
        #expect(row?.url.absoluteString == "http://thumbs.test/\(box.size.width)x\(box.size.height)/1.jpg")
        #expect(row?.thumbnail == box)
        // And the full view's prefetches ask for the full view's box
        model.handle(.open)
        let fullBox = model.layout.fullViewThumbnailOptions
        let prefix = "http://thumbs.test/\(fullBox.size.width)x\(fullBox.size.height)/"
        #expect(!model.fullViewPrefetchRequests.isEmpty)
        #expect(model.fullViewPrefetchRequests.allSatisfy { $0.url.absoluteString.hasPrefix(prefix) })
    }
}
