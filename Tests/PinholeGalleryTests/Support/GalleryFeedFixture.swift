import Foundation
import Pinhole
import PinholeTestServer

/// A JSON Feed of the project's fixture images over loopback HTTP, for end-to-end runs of the gallery.
enum GalleryFeedFixture {
    /// Fixture images after the first one, cycled over the items (synthetic colour patterns, not photographs).
    static let others = ["baseline.jpg", "progressive.jpg", "orient-1.jpg", "p3-red.jpg", "iccp-p3-green.png"]

    /// Serves `/feed.json` with `count` items, "Item 1"…, item 1's image being `first`, the others cycling over
    /// ``others``; each item has its own URL (`/img/N/FILE`, 20 ms latency), so each is its own download.
    static func serve(first: String, count: Int = 24) async throws -> PinholeTestServer {
        let files = [first] + others
        let directory = ChafaFixtures.inputs
        let bodies = try await WorkerThreadPool.io.run {
            try files.map { try Data(contentsOf: directory.appendingPathComponent($0)) }
        }
        let server = try PinholeTestServer()
        var items: [[String: Any]] = []
        for index in 0..<count {
            let file = index == 0 ? 0 : 1 + (index - 1) % others.count
            let path = "/img/\(index + 1)/\(files[file])"
            let type = files[file].hasSuffix(".png") ? "image/png" : "image/jpeg"
            server.route(path, .image(bodies[file], contentType: type, latency: .milliseconds(20)))
            items.append([
                "id": "fixture-\(index + 1)", "title": "Item \(index + 1)", "image": server.url(path).absoluteString,
                "date_published": "2026-03-04T10:20:30Z", "summary": files[file],
            ])
        }
        let feed: [String: Any] = ["version": "https://jsonfeed.org/version/1.1", "title": "Fixtures", "items": items]
        server.route("/feed.json", Route(body: try JSONSerialization.data(withJSONObject: feed)))
        return server
    }
}
