import Foundation
import Pinhole
import PinholeShared
import PinholeTestFakes
import Synchronization

/// A loader whose every load gives new bytes: a PNG signature, then `"<url>|v<n>"` where `n` counts the loads of
/// that URL from 1. So two loads never look alike, and a decoded image says which load it came from. Loads wait at
/// ``gate`` (open by default). Responses carry ``headers``.
final class VersionedLoader: DataLoading {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    let gate = TestGate()
    private let counts = Locked<[URL: Int]>([:])
    private let headerValues = Locked<[String: String]>([:])

    /// Response headers (lowercased names) from now on.
    var headers: [String: String] {
        get { headerValues.withLock { $0 } }
        set { headerValues.withLock { $0 = newValue } }
    }

    /// Loads of `url` started so far.
    func loads(of url: URL) -> Int { counts.withLock { $0[url] ?? 0 } }

    /// All loads started so far.
    var totalLoads: Int { counts.withLock { $0.values.reduce(0, +) } }

    /// The text a load of `url` numbered `version` carries.
    static func payload(_ url: URL, version: Int) -> String { "\(url.absoluteString)|v\(version)" }

    func loadData(for request: DataRequest) async throws -> DataResponse {
        let version = counts.withLock { counts in
            let version = (counts[request.url] ?? 0) + 1
            counts[request.url] = version
            return version
        }
        try await gate.pass()
        let body = Data(Self.signature + Array(Self.payload(request.url, version: version).utf8))
        return DataResponse(data: body, headers: headers, url: request.url)
    }
}

/// A decoder that writes the text after a ``VersionedLoader`` body's signature into the first pixel bytes (then
/// zeros), so each load gives distinct pixels and ``payload(of:)`` reads back which load an image came from. The
/// source is 400×300; the thumbnail box is honoured. Decodes wait at ``gate`` (open by default) and are counted.
final class PayloadDecoder: ImageDecoding {
    let gate = TestGate()
    private let count = Atomic<Int>(0)

    /// Decodes started.
    var decodeCount: Int { count.load(ordering: .acquiring) }

    func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage {
        count.add(1, ordering: .acquiringAndReleasing)
        try await gate.pass()
        guard data.starts(with: VersionedLoader.signature) else {
            throw PinholeError(.decodingFailed, "not a fake image")
        }
        let size = options.thumbnail?.fittedSize(width: 400, height: 300) ?? PixelSize(width: 400, height: 300)
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
        let text = Array(data.dropFirst(VersionedLoader.signature.count))
        pixels.replaceSubrange(0..<min(text.count, pixels.count - 1), with: text.prefix(pixels.count - 1))
        let image = PixelImage(width: size.width, height: size.height, pixelFormat: .rgb8, pixels: pixels)
        return DecodedImage(image: image, info: .init(format: .png, width: 400, height: 300))
    }

    /// The text an image decoded by this decoder carries (`"<url>|v<n>"`).
    static func payload(of image: PixelImage) -> String {
        String(decoding: image.pixels.prefix { $0 != 0 }, as: UTF8.self)
    }
}

/// A pipeline over a ``VersionedLoader`` and a ``PayloadDecoder``, with a disk cache in a fresh directory that is
/// removed when the fixture is released (a ``TemporaryDirectory``).
final class VersionedPipeline: Sendable {
    let loader = VersionedLoader()
    let decoder = PayloadDecoder()
    let pipeline: ImagePipeline
    private let scratch: TemporaryDirectory
    var directory: URL { scratch.url }

    init(diskCache: Bool = true, configure: (inout ImagePipeline.Configuration) -> Void = { _ in }) throws {
        scratch = try TemporaryDirectory(prefix: "pinhole-identity")
        var configuration = ImagePipeline.Configuration(decoder: decoder, dataLoader: loader)
        configuration.diskCacheDirectory = diskCache ? scratch.url : nil
        configure(&configuration)
        pipeline = ImagePipeline(configuration: configuration)
    }

    static func url(_ name: String) -> URL { URL(string: "https://images.example/\(name)")! }

    /// The text of the image `response` holds.
    static func payload(_ response: ImageResponse) -> String { PayloadDecoder.payload(of: response.image) }
}
