import Foundation
import Pinhole
import PinholeShared
import Synchronization

/// A processor that appends `|<tag>` to the text a ``PayloadDecoder`` image carries, so a test can read back which
/// processors ran, in which order.
struct TaggingProcessor: ImageProcessing {
    let tag: String

    var identifier: String { "test.tag(\(tag))" }

    func process(_ image: PixelImage) throws -> PixelImage {
        let text = Array((PayloadDecoder.payload(of: image) + "|" + tag).utf8)
        var pixels = [UInt8](repeating: 0, count: image.pixels.count)
        pixels.replaceSubrange(0..<min(text.count, pixels.count - 1), with: text.prefix(pixels.count - 1))
        return PixelImage(width: image.width, height: image.height, pixelFormat: image.pixelFormat, pixels: pixels)
    }
}

/// A ``VersionedLoader`` that also remembers every ``DataRequest`` it got (headers, timeout), and reports progress
/// in three steps (a third, two thirds, all) through ``DataRequest/onProgress``, as a streaming loader does.
final class RecordingLoader: DataLoading {
    struct Seen: Sendable {
        var url: URL
        var headers: [String: String]
        var timeout: Duration?
        var wantedPartialData: Bool
    }

    let inner = VersionedLoader()
    private let seen = Locked<[Seen]>([])

    /// Every request received, in order.
    var requests: [Seen] { seen.withLock { $0 } }

    func loadData(for request: DataRequest) async throws -> DataResponse {
        seen.withLock {
            $0.append(
                Seen(
                    url: request.url, headers: request.headers, timeout: request.timeout,
                    wantedPartialData: request.onPartialData != nil))
        }
        let response = try await inner.loadData(for: request)
        let total = response.data.count
        for step in 1...3 { request.onProgress?(total * step / 3, total) }
        return response
    }
}

/// A data: URL carrying `text` as a ``VersionedLoader``-style body (PNG signature, then the text), base64-encoded.
func payloadDataURL(_ text: String) -> URL {
    let body = Data(VersionedLoader.signature + Array(text.utf8))
    return URL(string: "data:image/png;base64,\(body.base64EncodedString())")!
}

/// An encoder whose output a ``PayloadDecoder`` reads back: the PNG signature, then the image's payload text.
struct PayloadEncoder: ImageEncoding {
    func encode(_ image: PixelImage, options: EncodingOptions) async throws -> Data {
        Data(VersionedLoader.signature + Array(PayloadDecoder.payload(of: image).utf8))
    }
}
