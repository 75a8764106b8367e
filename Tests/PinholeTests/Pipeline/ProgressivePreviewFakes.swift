import Foundation
import Pinhole
import PinholeShared
import PinholeTestFakes

/// A progressive JPEG's marker structure (SOI, SOF2, three scans, EOI) with filler entropy data: enough for the
/// pipeline's scan counting and sniffing; ``PreviewDecoder`` makes the pictures.
enum SyntheticProgressiveJPEG {
    static let frameHeader: [UInt8] = [
        0xFF, 0xD8, 0xFF, 0xC2, 0x00, 0x0B, 0x08, 0x00, 0x10, 0x00, 0x10, 0x01, 0x01, 0x11, 0x00,
    ]
    static let scanHeader: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
    static let entropy = [UInt8](repeating: 0x55, count: 64)

    /// The body, and the byte counts after which 1 and 2 scans are complete (the next scan's header has arrived).
    static func make() -> (body: Data, afterScans: [Int]) {
        var bytes = frameHeader
        var afterScans: [Int] = []
        for scan in 0..<3 {
            bytes += scanHeader
            if scan > 0 { afterScans.append(bytes.count) }
            bytes += entropy
        }
        bytes += [0xFF, 0xD9]
        return (Data(bytes), afterScans)
    }
}

/// Streams ``SyntheticProgressiveJPEG`` with progress and partial data. For a URL whose path contains "slow" it
/// stops after the first complete scan and waits at ``gate``; other URLs get the whole body at once.
final class ScanStreamingLoader: DataLoading {
    let gate = TestGate(open: false)
    private let wantedPartialData = Locked<[URL]>([])
    private let pausedURLs = Locked<[URL]>([])

    /// URLs whose requests asked for partial data (previews).
    var partialDataRequests: [URL] { wantedPartialData.withLock { $0 } }
    /// URLs whose loads reached the pause.
    var paused: [URL] { pausedURLs.withLock { $0 } }

    func loadData(for request: DataRequest) async throws -> DataResponse {
        if request.onPartialData != nil { wantedPartialData.withLock { $0.append(request.url) } }
        let (body, afterScans) = SyntheticProgressiveJPEG.make()
        if request.url.path.contains("slow") {
            request.onProgress?(afterScans[0], body.count)
            request.onPartialData?(body.prefix(afterScans[0]))
            pausedURLs.withLock { $0.append(request.url) }
            try await gate.pass()
        }
        request.onProgress?(body.count, body.count)
        request.onPartialData?(body)
        return DataResponse(data: body, url: request.url)
    }
}

/// Decodes ``SyntheticProgressiveJPEG`` bodies as an 8×8 grey picture, honouring
/// ``DecodingOptions/untrustedFormats`` as a real decoder does. Preview decodes (truncated data allowed) wait at
/// ``previewGate``, final ones at ``finalGate``; it counts starts and cancellations, and keeps preview options.
final class PreviewDecoder: ImageDecoding {
    private struct Counts {
        var previewStarts = 0
        var previewsCancelled = 0
        var finalStarts = 0
        var previewOptions: [DecodingOptions] = []
    }

    let previewGate = TestGate()
    let finalGate = TestGate()
    private let counts = Locked(Counts())

    var previewStarts: Int { counts.withLock { $0.previewStarts } }
    var previewsCancelled: Int { counts.withLock { $0.previewsCancelled } }
    var finalStarts: Int { counts.withLock { $0.finalStarts } }
    var previewOptions: [DecodingOptions] { counts.withLock { $0.previewOptions } }

    func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage {
        if let allowed = options.untrustedFormats, !allowed.contains(.jpeg) {
            throw PinholeError(.unsupportedFormat, "jpeg is not among the untrusted formats")
        }
        if options.allowsTruncatedData {
            counts.withLock {
                $0.previewStarts += 1
                $0.previewOptions.append(options)
            }
            do {
                try await previewGate.pass()
            } catch {
                counts.withLock { $0.previewsCancelled += 1 }
                throw error
            }
        } else {
            counts.withLock { $0.finalStarts += 1 }
            try await finalGate.pass()
        }
        let image = PixelImage(width: 8, height: 8, pixelFormat: .rgb8, pixels: [UInt8](repeating: 128, count: 192))
        return DecodedImage(image: image, info: .init(format: .jpeg, width: 16, height: 16))
    }
}
