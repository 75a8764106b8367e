import Foundation
import Pinhole
import PinholeGallery
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// The full view of the feed screen model, with a fake image loader: no terminal, no network.
@Suite(.timeLimit(scaledMinutes: 1))
@MainActor
struct FeedScreenModelFullViewTests {
    @Test func enterOpensTheSelectedPhotoAtTheTerminalsSizeAndPrefetchesTheNext() async {
        // Given a loaded 30-item list on a 120×40 terminal with the third row selected
        let model = await FeedScreenModelGridTests.model(count: 30, layout: .list)
        model.handle(.down)
        model.handle(.down)
        // When Enter is pressed
        model.handle(.open)
        // Then the third item is in the full view, asked at high priority fitted into the picture box's pixel size
        // (120×34 cells of 10×20 pixels: 1200×680), with the next and previous photos prefetched at that size
        #expect(model.fullViewIndex == 2)
        #expect(model.layout.fullViewBox == (120, 34))
        let box = ThumbnailOptions(size: PixelSize(width: 1200, height: 680), contentMode: .aspectFit)
        let prefetched = model.fullViewPrefetchRequests
        #expect(prefetched.map(\.url.lastPathComponent) == ["4.jpg", "2.jpg"])
        #expect(prefetched.allSatisfy { $0.thumbnail == box && $0.priority == .low })
        // And once drawn, the screen shows the photo and its metadata
        #expect(await eventually { model.isSettled })
        guard case .fullView(let content) = model.screenState().content else {
            Issue.record("expected the full view")
            return
        }
        #expect(content.row.title == "Photo 3" && content.details == "PNG · 400×300 px")
        guard case .image(let picture) = content.row.thumbnail else {
            Issue.record("expected the picture, got \(content.row.thumbnail)")
            return
        }
        #expect(picture.columns == 120 && picture.rows == 34)
        #expect(model.fullViewsShown == 1)
        let lines = ScreenRenderer.frame(model.screenState(), layout: model.layout).lines
        #expect(lines[35].contains("Photo 3") && lines[36].contains("PNG · 400×300 px"))
        #expect(lines[0].contains("3/30"))
    }

    @Test func withTaskMetricsTheDetailsLineSaysWhereThePhotosTimeWent() async throws {
        // Given a loaded list whose pipeline collects task metrics
        let (loader, _) = GalleryFixture.countingLoader(GalleryFixture.feedData(count: 5, imagePrefix: "ok"))
        let model = FeedScreenModel(
            feedURL: GalleryFixture.feedURL, loader: loader,
            pipeline: GalleryFixture.pipeline(collectsTaskMetrics: true), favouritesStore: nil,
            locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC")!,
            size: TerminalSize(columns: 120, rows: 40), layoutMode: .list, renderer: ChafaRenderer(mode: .symbols))
        await model.load()
        // When the first photo is opened in the full view
        model.handle(.open)
        try #require(await eventually { model.isSettled })
        // Then its details line ends with the summary of its metrics: loaded now, with its decode
        guard case .fullView(let content) = model.screenState().content else {
            Issue.record("expected the full view")
            return
        }
        #expect(content.details.hasPrefix("PNG · 400×300 px · network "), "\(content.details)")
        #expect(content.details.contains("decode"), "\(content.details)")
    }

    @Test func leftAndRightMoveBetweenPhotosAndEscReturnsToTheSamePlace() async {
        // Given the full view of item 5 opened from a list scrolled to show items 3…9
        let images = GalleryFixture.imageLoader()
        let model = await FeedScreenModelGridTests.model(count: 30, images: images, layout: .list)
        model.select(9)
        model.select(4)
        #expect(model.firstVisibleIndex == 3)
        model.handle(.open)
        // When → → ← are pressed
        model.handle(.right)
        model.handle(.right)
        model.handle(.left)
        // Then item 6 is shown, the selection followed, and the neighbours are prefetched
        #expect(model.fullViewIndex == 5 && model.selectedIndex == 5)
        #expect(Set(model.fullViewPrefetchRequests.map(\.url.lastPathComponent)) == ["5.jpg", "7.jpg"])
        #expect(await eventually { images.loads(ofPath: "/ok/6.jpg") >= 1 })
        // When Esc is pressed
        model.handle(.back)
        // Then the list is back where it was, with item 6 selected
        #expect(model.fullViewIndex == nil && model.firstVisibleIndex == 3 && model.selectedIndex == 5)
        guard case .list = model.screenState().content else {
            Issue.record("expected the list")
            return
        }
        #expect(model.fullViewPrefetchRequests.isEmpty)
    }

    @Test func leavingTheFullViewScrollsToThePhotoLastShown() async {
        // Given the full view of the first item of a 7-row screen
        let model = await FeedScreenModelGridTests.model(count: 30, layout: .list)
        model.handle(.open)
        // When → is pressed ten times and then Esc
        for _ in 0..<10 { model.handle(.right) }
        model.handle(.back)
        // Then item 11 is selected and scrolled into view by the least amount
        #expect(model.selectedIndex == 10 && model.firstVisibleIndex == 4)
        #expect(model.boundRowIndices == Array(4..<11))
    }

    @Test func failedPhotoShowsTheReasonAndRetryLoadsIt() async {
        // Given the full view of a photo whose server answers 404
        let images = GalleryFixture.imageLoader()
        let model = await FeedScreenModelGridTests.model(count: 3, images: images, layout: .list, imagePrefix: "fail")
        model.handle(.open)
        #expect(await eventually { model.isSettled })
        guard case .fullView(let failed) = model.screenState().content else { return }
        #expect(failed.row.thumbnail == .failed("HTTP 404"))
        let lines = ScreenRenderer.frame(model.screenState(), layout: model.layout).lines
        #expect(lines.contains { $0.contains("✗ HTTP 404 · r retries") })
        // When the server recovers and r is pressed
        images.heal()
        model.handle(.retry)
        // Then the photo loads
        #expect(
            await eventually {
                guard case .fullView(let content) = model.screenState().content else { return false }
                if case .image = content.row.thumbnail { return true }
                return false
            })
    }

    @Test func fullViewKeysDoNotMoveTheListAndListKeysDoNotOpenTwice() async {
        let model = await FeedScreenModelGridTests.model(count: 10, layout: .grid)
        model.handle(.open)
        // g, PgDn, Home and Enter do nothing in the full view
        for key in [Key.toggleLayout, .pageDown, .home, .open] { model.handle(key) }
        #expect(model.fullViewIndex == 0 && model.layout.mode == .grid)
        // Esc in the grid does nothing
        model.handle(.back)
        model.handle(.back)
        #expect(model.fullViewIndex == nil && model.selectedIndex == 0)
    }
}
