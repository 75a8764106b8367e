import Foundation

extension ImagePipeline {
    /// `decoded` after the request's processors (on ``Configuration/processingPool``); `decoded` itself when
    /// there are none.
    func processed(_ decoded: DecodedImage, for request: ImageRequest) async throws -> DecodedImage {
        guard !request.processors.isEmpty else { return decoded }
        let image = try await ImageProcessors.apply(
            request.processors, to: decoded.image, on: configuration.processingPool)
        recorder.record { $0.processed += 1 }
        return DecodedImage(image: image, info: decoded.info)
    }
}
