import Foundation
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

/// Failed disk-cache stores reach the pipeline's diagnostic handler once per kind of failure, not once per store.
@Suite(.timeLimit(scaledMinutes: 1))
struct DiskCacheFailureReportTests {
    @Test func storesThatAllFailTheSameWayAreReportedOnce() async throws {
        // Given a pipeline whose disk cache opened and stored an image, then lost its directory
        let directory = try TemporaryDirectory()
        let diagnostics = Locked<[String]>([])
        let loader = GatedDataLoader()
        loader.releaseAutomatically()
        var configuration = ImagePipeline.Configuration(decoder: FakeDecoder(), dataLoader: loader)
        configuration.diskCacheDirectory = directory.url
        configuration.onDiagnostic = { line in diagnostics.withLock { $0.append(line) } }
        let pipeline = ImagePipeline(configuration: configuration)
        _ = try await pipeline.image(for: ImageRequest(url: PipelineFixture.url("first.jpg")))
        try #require(await pipeline.diskCache()?.count == 1)
        try FileManager.default.removeItem(at: directory.url)
        // When five more images are loaded, each of whose stores fails
        for index in 0..<5 {
            let response = try await pipeline.image(for: ImageRequest(url: PipelineFixture.url("\(index).jpg")))
            #expect(FakeImage.isImage(response.image, of: PipelineFixture.url("\(index).jpg")))
        }
        // Then one diagnostic names the failure and says later ones are not reported
        let lines = diagnostics.withLock { $0 }
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains("could not store") == true)
        #expect(lines.first?.contains("later failures of this kind are not reported") == true)
    }

    @Test func eachKindOfFailureIsReportedOnce() {
        // Given a report and failures of two kinds: a full disk and a permission denied, each met three times
        let lines = Locked<[String]>([])
        let report = DiskCacheFailureReport { line in lines.withLock { $0.append(line) } }
        func failure(_ code: CocoaError.Code, errno: POSIXErrorCode) -> PinholeError {
            let posix = POSIXError(errno)
            let cocoa = CocoaError(code, userInfo: [NSUnderlyingErrorKey: posix])
            return PinholeError(.cacheUnavailable, "cannot write a disk cache entry", underlying: cocoa)
        }
        let full = failure(.fileWriteOutOfSpace, errno: .ENOSPC)
        let denied = failure(.fileWriteNoPermission, errno: .EACCES)
        // When they are reported in turn
        for index in 0..<3 {
            report.storeFailed("key-full-\(index)", full)
            report.storeFailed("key-denied-\(index)", denied)
        }
        // Then there is one line for each, the first of its kind, and the kinds name the errors underneath
        #expect(lines.withLock { $0 }.count == 2)
        #expect(lines.withLock { $0 }.first?.contains("key-full-0") == true)
        #expect(lines.withLock { $0 }.last?.contains("key-denied-0") == true)
        #expect(DiskCacheFailureReport.kind(of: full).hasPrefix("cache_unavailable/NSCocoaErrorDomain#640"))
        #expect(DiskCacheFailureReport.kind(of: full) != DiskCacheFailureReport.kind(of: denied))
    }
}
