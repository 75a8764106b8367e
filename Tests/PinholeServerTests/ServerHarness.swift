import Foundation
import Pinhole
import PinholeServer
import PinholeShared
import PinholeTestServer
import PinholeTestSupport
import PinholeVips

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real `ThumbnailServer` on a loopback port of libmicrohttpd, a real origin (``PinholeTestServer``) it may
/// reach through `--allow-source`, and URLSession as the client.
final class ServerHarness: Sendable {
    /// The signing key and salt of every harness (hex of `pinhole-test-key` and `salt`).
    static let keyHex = "70696e686f6c652d746573742d6b6579"
    static let saltHex = "73616c74"

    let origin: PinholeTestServer
    let server: ThumbnailServer
    let daemon: HTTPDaemon
    let signer: URLSigner
    let session: URLSession
    let log: LogSink

    /// An HTTP answer as the client saw it.
    struct Answer: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data

        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// The JSON error's code, or `nil`.
        var errorCode: String? {
            guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: [String: String]] else {
                return nil
            }
            return object["error"]?["code"]
        }
    }

    /// - Parameter configure: changes to the configuration (the origin is allowed by default).
    init(configure: (inout ServerConfiguration, PinholeTestServer) -> Void = { _, _ in }) throws {
        origin = try PinholeTestServer()
        signer = try URLSigner(keyHex: Self.keyHex, saltHex: Self.saltHex)
        var configuration = ServerConfiguration()
        configuration.daemon.port = 0
        configuration.signer = signer
        configuration.allowedSources = [SourcePrefix(origin.baseURL.absoluteString)!]
        configuration.concurrency = 2
        // Admission never refuses in tests that are not about it: a loaded machine must not turn waits into 503s.
        configuration.queueLimit = 10_000
        configuration.queueTimeout = .seconds(3600)
        configure(&configuration, origin)
        let log = LogSink()
        self.log = log
        let server = ThumbnailServer(configuration: configuration) { line in log.append(line) }
        self.server = server
        daemon = try HTTPDaemon(settings: configuration.daemon, responder: server)
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.timeoutIntervalForRequest = 60
        sessionConfiguration.httpMaximumConnectionsPerHost = 16
        session = URLSession(configuration: sessionConfiguration)
    }

    func stop() async {
        await daemon.stop()
        await origin.shutDown()
        session.finishTasksAndInvalidate()
    }

    /// The origin URL of `path`.
    func source(_ path: String) -> String { origin.url(path).absoluteString }

    /// `/signature/options/plain/source` for the origin's `path`, signed.
    func signedPath(_ options: String, plain path: String, extension ext: String? = nil) -> String {
        signer.signedPath("/\(options)/plain/\(source(path))\(ext.map { "@\($0)" } ?? "")")
    }

    /// GETs (or `method`s) `path` on the server, or on 127.0.0.1:`port` (a front such as ``NginxFront``).
    func get(
        _ path: String, headers: [String: String] = [:], method: String = "GET", port: Int? = nil
    ) async throws -> Answer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port ?? daemon.port)\(path)")!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (body, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return Answer(status: http?.statusCode ?? -1, headers: fields, body: body)
    }

    /// The size and format of an image answer, decoded by libvips.
    static func decoded(_ body: Data) async throws -> (size: PixelSize, format: ImageFormat, image: PixelImage) {
        let decoded = try await VipsDecoder().decode(body, options: DecodingOptions())
        return (PixelSize(width: decoded.image.width, height: decoded.image.height), decoded.info.format, decoded.image)
    }
}

/// Images with known sizes and distinct pixels for the origin.
enum OriginImages {
    /// A `width`×`height` JPEG: the left half red, the right half blue (so a crop shows which side it kept).
    static func halves(width: Int = 400, height: Int = 300, format: ImageFormat = .jpeg) async throws -> Data {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for _ in 0..<height {
            for x in 0..<width { pixels += x < width / 2 ? [230, 20, 20] : [20, 20, 230] }
        }
        let image = PixelImage(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
        return try await VipsEncoder().encode(image, options: EncodingOptions(format: format, quality: 95))
    }

    /// A 200×100 PNG with alpha: opaque green on the left, transparent on the right.
    static func withAlpha() async throws -> Data {
        var pixels: [UInt8] = []
        for _ in 0..<100 {
            for x in 0..<200 { pixels += x < 100 ? [20, 200, 20, 255] : [0, 0, 0, 0] }
        }
        let image = PixelImage(width: 200, height: 100, pixelFormat: .rgba8, pixels: pixels)
        return try await VipsEncoder().encode(image, options: EncodingOptions(format: .png))
    }
}

/// The access-log lines a server wrote.
final class LogSink: Sendable {
    private let storage = Locked<[String]>([])

    func append(_ line: String) { storage.withLock { $0.append(line) } }

    var lines: [String] { storage.withLock { $0 } }
}
