import Foundation
import Pinhole
import PinholeGallery
import PinholeShared
import PinholeTestSupport

/// Image bytes for tests: a PNG signature then one colour byte, so the pipeline's sniffing accepts them and
/// ``SolidDecoder`` can tell images apart.
enum FakeImageBytes {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func data(shade: UInt8) -> Data { Data(signature + [shade]) }
}

/// Decodes ``FakeImageBytes``: a 400×300 source of one grey shade, shrunk to the requested box (rgb8).
struct SolidDecoder: ImageDecoding {
    func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage {
        guard data.count == FakeImageBytes.signature.count + 1, let shade = data.last else {
            throw PinholeError(.decodingFailed, "not a fake image")
        }
        let size = options.thumbnail?.fittedSize(width: 400, height: 300) ?? PixelSize(width: 400, height: 300)
        let pixels = [UInt8](repeating: shade, count: size.width * size.height * 3)
        let image = PixelImage(width: size.width, height: size.height, pixelFormat: .rgb8, pixels: pixels)
        return DecodedImage(image: image, info: .init(format: .png, width: 400, height: 300))
    }
}

/// Serves images by URL path: `/hang/…` waits until cancelled, `/fail/…` answers HTTP 404 until
/// ``heal()`` is called, anything else a ``FakeImageBytes`` image whose shade is the path's length.
final class FakeImageLoader: DataLoading {
    private let state = Locked((requests: [String: Int](), healed: false, cancelled: 0))

    /// Requests so far, by path.
    func requests(_ path: String) -> Int { state.withLock { $0.requests[path] ?? 0 } }
    /// Requests that ended cancelled.
    var cancelledCount: Int { state.withLock { $0.cancelled } }

    /// From now on `/fail/…` succeeds.
    func heal() { state.withLock { $0.healed = true } }

    func loadData(for request: DataRequest) async throws -> DataResponse {
        let path = request.url.path
        let healed = state.withLock { state in
            state.requests[path, default: 0] += 1
            return state.healed
        }
        if path.hasPrefix("/hang/") {
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                state.withLock { $0.cancelled += 1 }
                throw CancellationError()
            }
        }
        if path.hasPrefix("/fail/") && !healed {
            throw PinholeError(.httpStatus, "HTTP 404 for \(path)", httpStatusCode: 404)
        }
        return DataResponse(
            data: FakeImageBytes.data(shade: UInt8(truncatingIfNeeded: path.count * 9)), url: request.url)
    }
}

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

    static func pipeline(_ loader: FakeImageLoader = FakeImageLoader()) -> ImagePipeline {
        ImagePipeline(configuration: ImagePipeline.Configuration(decoder: SolidDecoder(), dataLoader: loader))
    }

    @MainActor
    static func model(
        loader: @escaping FeedLoader, images: FakeImageLoader = FakeImageLoader(), store: FavouritesStore? = nil,
        size: TerminalSize = TerminalSize(columns: 120, rows: 40)
    ) -> FeedScreenModel {
        FeedScreenModel(
            feedURL: feedURL, loader: loader, pipeline: pipeline(images), favouritesStore: store,
            locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC")!, size: size)
    }

    /// A fresh temporary directory (removed by the caller).
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pinhole-gallery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Waits until `condition` holds, checking every 5 ms, for at most `timeout` × the load factor (a generous bound
/// for a loaded machine, not a speed assertion). Returns whether it held (`PinholeTestSupport.eventually`).
@MainActor
func eventually(timeout: Duration = .seconds(20), _ condition: @MainActor () -> Bool) async -> Bool {
    await PinholeTestSupport.eventually(timeout: timeout) { condition() }
}
