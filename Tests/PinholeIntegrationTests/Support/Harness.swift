import Foundation
import Pinhole
import PinholeCurl
import PinholeShared
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import PinholeVips
import Synchronization

/// A real pipeline (libcurl over loopback, libvips) in front of a real ``PinholeTestServer``, with an
/// optional disk cache in a fresh temporary directory.
struct Harness {
    let server: PinholeTestServer
    let pipeline: ImagePipeline
    let diskDirectory: URL?
    let diagnostics: Diagnostics
    /// The disk cache's directory when the harness made it (removed when the last harness using it goes).
    private let scratch: TemporaryDirectory?

    /// Collects the pipeline's diagnostics.
    final class Diagnostics: Sendable {
        private let lines = Locked<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func append(_ line: String) { lines.withLock { $0.append(line) } }
    }

    init(
        server: PinholeTestServer? = nil,
        diskCache: Bool = false,
        diskDirectory: URL? = nil,
        networkLimit: Int = 6,
        loader: HTTPDataLoader.Configuration = Harness.fastLoader(),
        collectsTaskMetrics: Bool = false,
        configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) throws {
        try self.init(
            server: server, diskCache: diskCache, diskDirectory: diskDirectory, scratch: nil,
            networkLimit: networkLimit, loader: loader, collectsTaskMetrics: collectsTaskMetrics, configure: configure)
    }

    private init(
        server: PinholeTestServer?, diskCache: Bool, diskDirectory: URL?, scratch: TemporaryDirectory?,
        networkLimit: Int, loader: HTTPDataLoader.Configuration, collectsTaskMetrics: Bool,
        configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) throws {
        let server = try server ?? PinholeTestServer()
        self.server = server
        let scratch =
            try scratch ?? (diskDirectory == nil && diskCache ? TemporaryDirectory(prefix: "pinhole-it") : nil)
        self.scratch = scratch
        let directory = diskDirectory ?? scratch?.url
        self.diskDirectory = directory
        let diagnostics = Diagnostics()
        self.diagnostics = diagnostics
        var configuration = ImagePipeline.Configuration(
            decoder: VipsDecoder(),
            dataLoader: SchemeRoutingDataLoader(http: HTTPDataLoader(configuration: loader))
        )
        configuration.diskCacheDirectory = directory
        configuration.networkConcurrencyLimit = networkLimit
        configuration.onDiagnostic = { diagnostics.append($0) }
        configuration.collectsTaskMetrics = collectsTaskMetrics
        configure(&configuration)
        pipeline = ImagePipeline(configuration: configuration)
    }

    /// The same server and disk directory behind a brand-new pipeline (a restart of the app).
    func restarted() throws -> Harness {
        try Harness(
            server: server, diskCache: false, diskDirectory: diskDirectory, scratch: scratch, networkLimit: 6,
            loader: Harness.fastLoader(), collectsTaskMetrics: pipeline.configuration.collectsTaskMetrics)
    }

    /// Loader limits short enough for tests: a 1 s stall timeout and a 30 s deadline, × the load factor. A
    /// transfer that keeps going (a trickle) must not look stalled because a loaded machine left the server's
    /// or the loader's thread unscheduled for a second (seen: a 250 ms trickle failed as stalled at load ~30).
    static func fastLoader() -> HTTPDataLoader.Configuration {
        var configuration = HTTPDataLoader.Configuration()
        configuration.stallTimeout = LoadFactor.scaled(.seconds(1))
        configuration.deadline = LoadFactor.scaled(.seconds(30))
        return configuration
    }

    func request(_ path: String, size: Int? = 256, priority: ImageRequest.Priority = .normal) -> ImageRequest {
        ImageRequest(
            url: server.url(path), thumbnail: size.map { ThumbnailOptions(maxPixelSize: $0) }, priority: priority)
    }
}

/// Fixture files (Tests/Fixtures), read off the cooperative pool.
enum Fixture {
    static let cases = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/cases")

    /// `name` from `Tests/Fixtures/<caseSet>/inputs` (`cases`, `cases-s2`, `cases-s3`).
    static func input(_ name: String, caseSet: String = "cases") async throws -> Data {
        let url = cases.deletingLastPathComponent().appendingPathComponent(caseSet)
            .appendingPathComponent("inputs").appendingPathComponent(name)
        return try await WorkerThreadPool.io.run { try Data(contentsOf: url) }
    }
}

/// Waits until `condition` holds, checking every 10 ms, for at most `timeout` × the load factor (a bound for a
/// loaded machine, not a speed assertion); `#require` it when the test depends on it
/// (`PinholeTestSupport.eventually`).
func eventually(timeout: Duration = .seconds(15), _ condition: @Sendable () async -> Bool) async -> Bool {
    await PinholeTestSupport.eventually(timeout: timeout, every: .milliseconds(10), condition)
}

extension PixelImage {
    /// Whether the pixel at (x, y) is within `tolerance` of `rgb` in every channel.
    func matches(x: Int, y: Int, _ rgb: (Int, Int, Int), tolerance: Int) -> Bool {
        let p = pixel(x: x, y: y)
        return abs(Int(p.r) - rgb.0) <= tolerance && abs(Int(p.g) - rgb.1) <= tolerance
            && abs(Int(p.b) - rgb.2) <= tolerance
    }
}
