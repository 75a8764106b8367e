import Foundation
import Pinhole
import PinholeGallery
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport

/// Builds feeds, loaders and models for the tests.
enum GalleryFixture {
    static let feedURL = URL(string: "https://feeds.example/photos.json")!

    /// A JSON Feed with `count` items "Photo 1"…, dated one day apart from 2026-03-04, images at
    /// `https://img.example/<imagePrefix>/N.jpg` (no image when `imagePrefix` is nil).
    static func feedData(count: Int, imagePrefix: String? = "ok") -> Data {
        let items = (0..<count).map { index -> [String: Any] in
            var item: [String: Any] = [
                "id": "item-\(index + 1)", "title": "Photo \(index + 1)",
                "date_published": "2026-03-\(String(format: "%02d", 4 + index % 20))T10:20:30Z",
                "summary": "Summary of photo \(index + 1)",
            ]
            if let imagePrefix { item["image"] = "https://img.example/\(imagePrefix)/\(index + 1).jpg" }
            return item
        }
        let document: [String: Any] = [
            "version": "https://jsonfeed.org/version/1.1", "title": "Test photos", "items": items,
        ]
        return try! JSONSerialization.data(withJSONObject: document)
    }

    /// A loader that returns `data` and counts its calls.
    static func countingLoader(_ data: Data) -> (FeedLoader, Locked<Int>) {
        let calls = Locked(0)
        let loader: FeedLoader = { _ in
            calls.withLock { $0 += 1 }
            return data
        }
        return (loader, calls)
    }

    /// The kit's loader answering by URL path: `/hang/…` waits until cancelled, `/fail/…` answers HTTP 404
    /// until ``PinholeTestFakes/GatedDataLoader/heal()``, anything else a ``FakeImage`` body at once.
    static func imageLoader() -> GatedDataLoader {
        GatedDataLoader(answering: imageAnswer(healed: false))
    }

    /// What ``imageLoader()`` answers for a URL, before or after it is healed.
    static func imageAnswer(healed: Bool) -> GatedDataLoader.Responder {
        { url in
            if url.path.hasPrefix("/hang/") { return nil }
            if url.path.hasPrefix("/fail/") && !healed {
                return .failure(PinholeError(.httpStatus, "HTTP 404 for \(url.path)", httpStatusCode: 404))
            }
            return .success(FakeImage.response(for: url))
        }
    }

    static func pipeline(_ loader: GatedDataLoader = imageLoader(), collectsTaskMetrics: Bool = false) -> ImagePipeline
    {
        var configuration = ImagePipeline.Configuration(decoder: FakeDecoder(), dataLoader: loader)
        configuration.collectsTaskMetrics = collectsTaskMetrics
        return ImagePipeline(configuration: configuration)
    }

    @MainActor
    static func model(
        loader: @escaping FeedLoader, images: GatedDataLoader = imageLoader(), store: FavouritesStore? = nil,
        size: TerminalSize = TerminalSize(columns: 120, rows: 40)
    ) -> FeedScreenModel {
        FeedScreenModel(
            feedURL: feedURL, loader: loader, pipeline: pipeline(images), favouritesStore: store,
            locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC")!, size: size)
    }
}

extension GatedDataLoader {
    /// From now on `/fail/…` succeeds (a loader made by ``GalleryFixture/imageLoader()``).
    func heal() { answerAutomatically(with: GalleryFixture.imageAnswer(healed: true)) }
}

/// Waits until `condition` holds, checking every 5 ms, for at most `timeout` × the load factor (a generous bound
/// for a loaded machine, not a speed assertion). Returns whether it held (`PinholeTestSupport.eventually`).
@MainActor
func eventually(timeout: Duration = .seconds(20), _ condition: @MainActor () -> Bool) async -> Bool {
    await PinholeTestSupport.eventually(timeout: timeout) { condition() }
}
