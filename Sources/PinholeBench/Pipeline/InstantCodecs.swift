import Foundation
import Pinhole

/// A loader that answers at once from memory: a fake PNG signature plus the URL, so the pipeline's own cost is
/// what a benchmark measures.
struct InstantDataLoader: DataLoading {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    func loadData(for request: DataRequest) async throws -> DataResponse {
        DataResponse(data: Data(Self.signature + Array(request.url.absoluteString.utf8)), url: request.url)
    }
}

/// A decoder that returns a 1×1 image at once.
struct InstantDecoder: ImageDecoding {
    static let image = DecodedImage(
        image: PixelImage(width: 1, height: 1, pixelFormat: .rgb8, pixels: [0, 0, 0]),
        info: .init(format: .png, width: 1, height: 1)
    )

    func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage { Self.image }
}
