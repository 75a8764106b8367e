import Foundation
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

/// Failed disk-cache stores reach the pipeline's diagnostic handler once per kind of failure, not once per store.
@Suite(.timeLimit(scaledMinutes: 1))
struct DiskCacheFailureReportTests {
    /// A pipeline of fakes (distinct pixels per URL) with its disk cache in `directory` and its diagnostics kept.
    static func pipeline(caching directory: TemporaryDirectory, diagnostics: Locked<[String]>) -> ImagePipeline {
        let loader = GatedDataLoader()
        loader.releaseAutomatically()
        var configuration = ImagePipeline.Configuration(decoder: FakeDecoder(), dataLoader: loader)
        configuration.diskCacheDirectory = directory.url
        configuration.onDiagnostic = { line in diagnostics.withLock { $0.append(line) } }
        return ImagePipeline(configuration: configuration)
    }

    @Test func storesThatAllFailTheSameWayAreReportedOnce() async throws {
        // Given a pipeline whose disk cache opened and stored an image, then lost its directory
        let directory = try TemporaryDirectory()
        let diagnostics = Locked<[String]>([])
        let pipeline = Self.pipeline(caching: directory, diagnostics: diagnostics)
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
        #expect(lines.first?.contains("later failures of this kind are not reported until a store succeeds") == true)
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

    @Test func aStoreThatSucceedsAfterFailuresSaysSoAndReArmsTheReport() async throws {
        // Given a pipeline whose disk cache lost its directory, so that its stores failed and one line said so
        let directory = try TemporaryDirectory()
        let diagnostics = Locked<[String]>([])
        let pipeline = Self.pipeline(caching: directory, diagnostics: diagnostics)
        let load = { (name: String) in _ = try await pipeline.image(for: ImageRequest(url: PipelineFixture.url(name))) }
        try await load("first.jpg")
        try FileManager.default.removeItem(at: directory.url)
        for index in 0..<3 { try await load("a\(index).jpg") }
        #expect(diagnostics.withLock { $0 }.count == 1)
        // When the directory is back and stores succeed
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        for index in 0..<3 { try await load("b\(index).jpg") }
        // Then one line says so, once
        let lines = diagnostics.withLock { $0 }
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.count == 2 && lines[0].contains("a0.jpg"), "\(lines)")
        #expect(lines.count == 2 && lines[1].contains("stores succeed again (after failures of 1 kind)"))
    }

    @Test func aKindIsReportedAgainAfterASuccessButAtMostOncePerInterval() {
        // Given two reports of a full disk: one that may repeat a kind at once, one that waits an hour
        let full = PinholeError(
            .cacheUnavailable, "cannot write a disk cache entry",
            underlying: CocoaError(.fileWriteOutOfSpace, userInfo: [NSUnderlyingErrorKey: POSIXError(.ENOSPC)]))
        let immediate = Locked<[String]>([])
        let hourly = Locked<[String]>([])
        let reports = [
            (
                DiskCacheFailureReport(
                    onDiagnostic: { l in immediate.withLock { $0.append(l) } }, minimumInterval: .zero),
                immediate
            ),
            (
                DiskCacheFailureReport(
                    onDiagnostic: { l in hourly.withLock { $0.append(l) } }, minimumInterval: .seconds(3600)),
                hourly
            ),
        ]
        // When a disk so nearly full that stores fail and succeed in turn does so 100 times
        for (report, _) in reports {
            for index in 0..<100 {
                report.storeFailed("key-\(index)", full)
                report.storeSucceeded()
            }
        }
        // Then the report that may repeat at once has a failure and a recovery line for each turn, and the
        // hourly one two lines in all: the first failure and its recovery
        #expect(immediate.withLock { $0 }.count == 200)
        let lines = hourly.withLock { $0 }
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.contains("key-0") == true && lines.last?.contains("stores succeed again") == true)
    }
}
