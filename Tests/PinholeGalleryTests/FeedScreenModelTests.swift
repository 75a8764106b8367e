import Foundation
import Pinhole
import PinholeGallery
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// The feed screen model with an injected feed loader and a fake image loader: no terminal, no network.
@Suite(.timeLimit(scaledMinutes: 1))
@MainActor
struct FeedScreenModelTests {
    @Test func loadsOnceAndRedrawsOnceForTheWholeList() async {
        // Given a 50-item feed whose thumbnails never arrive
        let (loader, calls) = GalleryFixture.countingLoader(GalleryFixture.feedData(count: 50, imagePrefix: "hang"))
        let model = GalleryFixture.model(loader: loader)
        var redraws: [FeedScreenModel.Phase] = []
        model.onRedraw = { [unowned model] in redraws.append(model.phase) }
        // When the feed loads
        await model.load()
        // Then the loader ran once, and the list appeared with one redraw (after the one for the spinner)
        #expect(calls.withLock { $0 } == 1)
        #expect(model.feedLoadCount == 1)
        #expect(redraws == [.loading, .loaded])
        #expect(model.rows.count == 50)
        #expect(model.rows[0].title == "Photo 1" && model.rows[0].date == "Mar 4, 2026")
        #expect(model.boundRowIndices == Array(0..<7))
    }

    @Test(arguments: [
        FeedError(.offline, "cannot reach feeds.example"),
        FeedError(.httpStatus, "answered HTTP 503", statusCode: 503),
    ])
    func failureShowsTheErrorAndNoRows(_ failure: FeedError) async throws {
        // Given a loader that fails
        let model = GalleryFixture.model(loader: { _ in throw failure })
        // When the feed loads
        await model.load()
        // Then the phase is the typed error, there are no rows, and the screen shows the error
        #expect(model.phase == .failed(failure))
        #expect(model.rows.isEmpty)
        #expect(model.boundRowIndices.isEmpty)
        let lines = ScreenRenderer.render(model.screenState(), size: TerminalSize(columns: 120, rows: 40))
        #expect(lines.contains { $0.contains(failure.headline) })
        #expect(lines.contains { $0.contains("Press r to retry") })
    }

    @Test func badJSONIsATypedErrorAndRetryLoadsAgain() async {
        // Given a loader that returns garbage first and a feed afterwards
        let attempts = Locked(0)
        let feed = GalleryFixture.feedData(count: 3)
        let model = GalleryFixture.model(loader: { _ in
            let attempt = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            return attempt == 1 ? Data("<html>oops".utf8) : feed
        })
        // When it loads, fails, and the user retries
        await model.load()
        guard case .failed(let error) = model.phase else {
            Issue.record("expected a failure, got \(model.phase)")
            return
        }
        #expect(error.kind == .invalidJSON)
        model.handle(.retry)
        // Then the second attempt shows the rows
        #expect(await eventually { model.phase == .loaded })
        #expect(model.rows.count == 3)
        #expect(attempts.withLock { $0 } == 2)
    }

    @Test func favouriteIsMarkedOnTheSelectedRow() async {
        // Given a loaded feed
        let (loader, _) = GalleryFixture.countingLoader(GalleryFixture.feedData(count: 5, imagePrefix: nil))
        let model = GalleryFixture.model(loader: loader)
        await model.load()
        // When the second row is selected and marked
        model.handle(.down)
        model.handle(.favourite)
        // Then that row (only) is a favourite, on screen too
        #expect(model.favourites == ["item-2"])
        guard case .list(let list) = model.screenState().content else {
            Issue.record("expected the list")
            return
        }
        #expect(list.rows.map(\.isFavourite) == [false, true, false, false, false])
        #expect(list.favouriteCount == 1)
        let lines = ScreenRenderer.render(model.screenState(), size: TerminalSize(columns: 120, rows: 40))
        #expect(lines[6].contains("★") && lines[6].contains("Photo 2"))
        // And marking again removes it
        model.handle(.favourite)
        #expect(model.favourites.isEmpty)
    }

    @Test func favouritesSurviveARestart() async throws {
        // Given a favourites file in a temporary XDG data home
        let scratch = try TemporaryDirectory(prefix: "pinhole-gallery")
        defer { scratch.remove() }
        let home = scratch.url
        let store = FavouritesStore(fileURL: FavouritesStore.defaultFileURL(environment: ["XDG_DATA_HOME": home.path]))
        #expect(store.fileURL.path == home.path + "/pinhole/favourites.json")
        let (loader, _) = GalleryFixture.countingLoader(GalleryFixture.feedData(count: 5, imagePrefix: nil))
        let first = GalleryFixture.model(loader: loader, store: store)
        await first.loadFavourites()
        await first.load()
        // When rows 1 and 3 are marked and the app quits
        first.handle(.favourite)
        first.handle(.down)
        first.handle(.down)
        first.handle(.favourite)
        await first.flushFavourites()
        // Then a new model reading the same file shows both marks
        let second = GalleryFixture.model(loader: loader, store: store)
        await second.loadFavourites()
        await second.load()
        #expect(second.favourites == ["item-1", "item-3"])
        #expect(second.diagnostic == nil)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.path + "/pinhole")
        #expect(leftovers == ["favourites.json"], "no temporary files are left behind")
    }

    @Test func corruptFavouritesFileIsReportedAndReplaced() async throws {
        // Given a favourites file that is not JSON
        let scratch = try TemporaryDirectory(prefix: "pinhole-gallery")
        defer { scratch.remove() }
        let home = scratch.url
        let store = FavouritesStore(fileURL: home.appendingPathComponent("pinhole/favourites.json"))
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("pinhole"), withIntermediateDirectories: true)
        try Data("{\"favourites\": [\"item-1\"".utf8).write(to: store.fileURL)
        let (loader, _) = GalleryFixture.countingLoader(GalleryFixture.feedData(count: 3, imagePrefix: nil))
        let model = GalleryFixture.model(loader: loader, store: store)
        // When the model reads it
        await model.loadFavourites()
        await model.load()
        // Then the problem is on the message line, the set is empty, the old file is kept aside and replaced
        #expect(model.diagnostic?.contains("corrupt") == true)
        #expect(model.favourites.isEmpty)
        #expect(FileManager.default.fileExists(atPath: store.fileURL.path + ".corrupt"))
        #expect(await store.load() == FavouritesStore.Loaded(ids: [], problem: nil))
        // And new favourites save normally
        model.handle(.favourite)
        await model.flushFavourites()
        #expect(await store.load().ids == ["item-1"])
    }

    @Test func rowsLeavingTheScreenCancelAndTheNextScreenIsPrefetched() async {
        // Given a 2-row screen over a feed whose images never arrive
        let images = GalleryFixture.imageLoader()
        let (loader, _) = GalleryFixture.countingLoader(GalleryFixture.feedData(count: 10, imagePrefix: "hang"))
        let model = GalleryFixture.model(loader: loader, images: images, size: TerminalSize(columns: 120, rows: 13))
        await model.load()
        #expect(model.layout.visibleRowCount == 2)
        let firstSlot = model.slot(forRow: 0)
        #expect(model.boundRowIndices == [0, 1])
        #expect(model.prefetchRequests.map(\.url.lastPathComponent) == ["3.jpg", "4.jpg"])
        #expect(model.prefetchRequests.allSatisfy { $0.priority == .low })
        #expect(await eventually { images.loads(ofPath: "/hang/1.jpg") == 1 })
        // When the selection moves two rows down
        model.handle(.down)
        model.handle(.down)
        // Then row 0 left the screen and its slot was cancelled; rows 1…2 are bound; 4…5 are prefetched
        #expect(model.boundRowIndices == [1, 2])
        #expect(firstSlot?.phase.isLoading == false)
        #expect(model.prefetchRequests.map(\.url.lastPathComponent) == ["4.jpg", "5.jpg"])
        #expect(await eventually { images.cancelled.count >= 1 }, "row 0's download stopped")
        // And moving up prefetches the screen above
        model.handle(.home)
        #expect(model.boundRowIndices == [0, 1])
        #expect(model.prefetchRequests.isEmpty)
    }

    @Test func thumbnailsAreConvertedAndShown() async {
        // Given a feed whose images load
        let (loader, _) = GalleryFixture.countingLoader(GalleryFixture.feedData(count: 20))
        let model = GalleryFixture.model(loader: loader)
        // When it loads and settles
        await model.load()
        #expect(await eventually { model.isSettled })
        // Then every visible row shows a picture of the thumbnail's size
        guard case .list(let list) = model.screenState().content else {
            Issue.record("expected the list")
            return
        }
        for row in list.rows {
            guard case .image(let cells) = row.thumbnail else {
                Issue.record("row \(row.index) shows \(row.thumbnail)")
                continue
            }
            #expect(cells.columns == model.layout.thumbnailColumns && cells.rows == model.layout.thumbnailRows)
        }
        #expect(model.imagesShown == 7)
        let lines = ScreenRenderer.render(model.screenState(), size: TerminalSize(columns: 120, rows: 40))
        #expect(lines[1].contains(";2;"), "truecolor cells")
    }

    @Test func failedThumbnailShowsAnErrorMarkAndRetryLoadsIt() async {
        // Given a feed whose images fail with HTTP 404
        let images = GalleryFixture.imageLoader()
        let (loader, _) = GalleryFixture.countingLoader(GalleryFixture.feedData(count: 3, imagePrefix: "fail"))
        let model = GalleryFixture.model(loader: loader, images: images)
        await model.load()
        #expect(await eventually { model.isSettled })
        guard case .list(let failed) = model.screenState().content else { return }
        #expect(failed.rows.map(\.thumbnail) == Array(repeating: .failed("HTTP 404"), count: 3))
        // When the server recovers and the user presses r
        images.heal()
        model.handle(.retry)
        // Then the thumbnails load
        #expect(
            await eventually {
                guard case .list(let list) = model.screenState().content else { return false }
                return list.rows.allSatisfy { if case .image = $0.thumbnail { true } else { false } }
            })
        #expect(images.loads(ofPath: "/fail/1.jpg") == 2)
    }

    @Test func resizingRequestsThumbnailsAtTheNewSize() async {
        // Given a loaded feed on a wide terminal
        let (loader, _) = GalleryFixture.countingLoader(GalleryFixture.feedData(count: 30))
        let model = GalleryFixture.model(loader: loader)
        await model.load()
        let wideRequest = model.slot(forRow: 0)?.request
        // When the terminal becomes narrow and short
        model.resize(to: TerminalSize(columns: 40, rows: 20))
        // Then fewer rows are bound and thumbnails are asked at the pixel size of the smaller box (10×20-pixel
        // cells: 14×4 cells = 140×80 pixels wide, 8×4 cells = 80×80 narrow)
        #expect(model.boundRowIndices == Array(0..<3))
        #expect(model.slot(forRow: 0)?.request?.thumbnail?.maxPixelSize == 80)
        #expect(wideRequest?.thumbnail?.maxPixelSize == 140)
    }
}
