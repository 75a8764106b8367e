import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

/// Per-request options through the pipeline (fake loader and decoder, real disk cache): processors, headers and
/// timeout, private headers, offline, disk switches, `pipeline.cache`, custom schemes, `data:` URLs, bytes in hand.
/// Every load gives distinct bytes and every decode distinct pixels, so a test can tell where an image came from.
@Suite(.timeLimit(scaledMinutes: 1))
struct RequestOptionsTests {
    typealias Fixture = VersionedPipeline

    static func payload(_ response: ImageResponse) -> String { Fixture.payload(response) }

    @Test func everyHeaderJoinsTheSourceKeyHashed() {
        // Given one URL asked anonymously, by two users, with an API key and with an Accept header
        let url = Fixture.url("me.jpg")
        let anonymous = ImageRequest(url: url)
        let alice = ImageRequest(url: url, headers: ["Authorization": "Bearer alice-secret"])
        let aliceAgain = ImageRequest(url: url, headers: ["authorization": "Bearer alice-secret"])
        let bob = ImageRequest(url: url, headers: ["Cookie": "session=bob"])
        let apiKey = ImageRequest(url: url, headers: ["X-Api-Key": "carol-key"])
        let accept = ImageRequest(url: url, headers: ["Accept": "image/webp"])
        // Then each has a key of its own (a server may answer per any header: X-Api-Key, Vary: Accept), the same
        // headers one key whatever the names' case, and no key shows a value
        let keys = [anonymous, alice, bob, apiKey, accept].map(\.sourceKey)
        #expect(Set(keys).count == 5)
        #expect(alice.sourceKey == aliceAgain.sourceKey)
        #expect(
            !keys.contains { $0.contains("alice") || $0.contains("bob") || $0.contains("carol") || $0.contains("webp") }
        )
        #expect(alice.sourceKey.hasPrefix(url.absoluteString + "#headers="))
        #expect(accept.dataJobKey != anonymous.dataJobKey)
        // And no value can pose as another set of headers (a line break, or a name's text inside a value)
        let smuggled = ImageRequest(url: url, headers: ["A": "1\nb: 2"])
        let two = ImageRequest(url: url, headers: ["A": "1", "B": "2"])
        #expect(smuggled.sourceKey != two.sourceKey)
        // And setting headers later re-keys the request
        var late = anonymous
        late.headers = ["Authorization": "Bearer alice-secret"]
        #expect(late.sourceKey == alice.sourceKey)
    }

    @Test func aPrivateImageIsNeverServedToAnotherUserOrAnonymously() async throws {
        // Given alice's image loaded (memory and disk now hold it)
        let fixture = try Fixture()
        let url = Fixture.url("private.jpg")
        let alice = try await fixture.pipeline.image(for: ImageRequest(url: url, headers: ["Authorization": "alice"]))
        // When the same URL is asked anonymously and by bob
        let anonymous = try await fixture.pipeline.image(for: ImageRequest(url: url))
        let bob = try await fixture.pipeline.image(for: ImageRequest(url: url, headers: ["Authorization": "bob"]))
        // Then each went to the source (loads 1, 2, 3): nobody got alice's bytes from memory or disk
        #expect(Self.payload(alice).hasSuffix("|v1"))
        #expect(Self.payload(anonymous).hasSuffix("|v2") && anonymous.source == .network)
        #expect(Self.payload(bob).hasSuffix("|v3") && bob.source == .network)
        // And alice still gets her own from memory
        let again = try await fixture.pipeline.image(for: ImageRequest(url: url, headers: ["Authorization": "alice"]))
        #expect(again.source == .memoryCache && Self.payload(again).hasSuffix("|v1"))
    }

    @Test func processorsRunInOrderAndTheMemoryCacheHoldsTheirResult() async throws {
        // Given a request with two processors
        let fixture = try Fixture()
        let url = Fixture.url("p.jpg")
        let processed = ImageRequest(
            url: url, thumbnail: ThumbnailOptions(maxPixelSize: 100),
            processors: [TaggingProcessor(tag: "a"), TaggingProcessor(tag: "b")])
        // When loaded
        let first = try await fixture.pipeline.image(for: processed)
        // Then the processors ran in order, and the memory cache holds the processed image under the request's key
        #expect(Self.payload(first) == VersionedLoader.payload(url, version: 1) + "|a|b")
        #expect(fixture.pipeline.cachedImage(for: processed).map(Self.payload) == Self.payload(first))
        #expect(fixture.pipeline.metrics.processed == 1)
        // And the same URL without processors, or with them in another order, is another image (not served from
        // the processed one), made from the same bytes (disk: no new load)
        let plain = try await fixture.pipeline.image(for: ImageRequest(url: url, maxPixelSize: 100))
        let swapped = try await fixture.pipeline.image(
            for: ImageRequest(
                url: url, thumbnail: ThumbnailOptions(maxPixelSize: 100),
                processors: [TaggingProcessor(tag: "b"), TaggingProcessor(tag: "a")]))
        #expect(Self.payload(plain) == VersionedLoader.payload(url, version: 1))
        #expect(Self.payload(swapped) == VersionedLoader.payload(url, version: 1) + "|b|a")
        #expect(fixture.loader.loads(of: url) == 1)
        #expect(processed.imageKey != ImageRequest(url: url, maxPixelSize: 100).imageKey)
    }

    @Test func headersAndTimeoutReachTheLoaderAndKeepLoadsApart() async throws {
        // Given a loader that records what it is asked
        let loader = RecordingLoader()
        let pipeline = ImagePipeline(configuration: .init(decoder: PayloadDecoder(), dataLoader: loader))
        let url = Fixture.url("h.jpg")
        loader.inner.gate.close()
        // When two requests for one URL with different headers run at the same time
        let webp = Task {
            try await pipeline.image(
                for: ImageRequest(url: url, headers: ["Accept": "image/webp"], timeout: .seconds(3)))
        }
        defer { webp.cancel() }
        let avif = Task { try await pipeline.image(for: ImageRequest(url: url, headers: ["Accept": "image/avif"])) }
        defer { avif.cancel() }
        try #require(await eventually { loader.inner.gate.waitingCount == 2 })
        loader.inner.gate.open()
        _ = try await (webp.value, avif.value)
        // Then each had its own load, with its own headers and timeout
        let seen = loader.requests
        #expect(seen.count == 2)
        #expect(seen.contains { $0.headers == ["Accept": "image/webp"] && $0.timeout == .seconds(3) })
        #expect(seen.contains { $0.headers == ["Accept": "image/avif"] && $0.timeout == nil })
    }

    @Test func offlineAnswersFromTheCachesOnlyAndNeverLoads() async throws {
        // Given an image stored on disk already stale (max-age=0), and an empty memory cache
        let fixture = try Fixture()
        fixture.loader.headers = ["cache-control": "max-age=0"]
        let url = Fixture.url("offline.jpg")
        _ = try await fixture.pipeline.image(for: ImageRequest(url: url, maxPixelSize: 100))
        fixture.pipeline.removeAllCachedImages()
        let offline = ImageRequest(url: url, maxPixelSize: 100, options: [.returnCacheDataDontLoad])
        // When asked offline, Then the stale disk copy answers as it is, with no load
        let answer = try await fixture.pipeline.image(for: offline)
        #expect(answer.source == .diskCache && Self.payload(answer).hasSuffix("|v1"))
        #expect(fixture.loader.loads(of: url) == 1)
        // And from the disk again the second time: a stale copy is not kept in memory, where a request that may
        // load would find it without revalidation (issue 25)
        #expect(try await fixture.pipeline.image(for: offline).source == .diskCache)
        // When an image in neither cache is asked offline, Then it fails as not cached, with no load
        let missing = Fixture.url("never.jpg")
        await #expect {
            _ = try await fixture.pipeline.image(for: ImageRequest(url: missing, options: [.returnCacheDataDontLoad]))
        } throws: { ($0 as? PinholeError)?.code == .notCached }
        #expect(fixture.loader.loads(of: missing) == 0)
    }

    @Test func diskReadsAndWritesSwitchOffSeparately() async throws {
        let fixture = try Fixture()
        let url = Fixture.url("switch.jpg")
        // When loaded with disk writes off, Then nothing is stored
        _ = try await fixture.pipeline.image(for: ImageRequest(url: url, options: [.disableDiskCacheWrites]))
        #expect(await fixture.pipeline.diskCache()?.count == 0)
        // When loaded normally, Then the bytes are stored (load 2)
        fixture.pipeline.removeAllCachedImages()
        _ = try await fixture.pipeline.image(for: ImageRequest(url: url))
        #expect(await fixture.pipeline.diskCache()?.count == 1)
        // When loaded with disk reads off, Then the source is asked though the disk holds the bytes, and the new
        // bytes replace them (writes still on)
        fixture.pipeline.removeAllCachedImages()
        let noRead = try await fixture.pipeline.image(for: ImageRequest(url: url, options: [.disableDiskCacheReads]))
        #expect(noRead.source == .network && Self.payload(noRead).hasSuffix("|v3"))
        fixture.pipeline.removeAllCachedImages()
        let fromDisk = try await fixture.pipeline.image(for: ImageRequest(url: url))
        #expect(fromDisk.source == .diskCache && Self.payload(fromDisk).hasSuffix("|v3"))
        #expect(fixture.loader.loads(of: url) == 3)
    }

    @Test func pipelineCacheLooksUpStoresAndRemovesOneRequestsEntries() async throws {
        let fixture = try Fixture()
        let url = Fixture.url("cache.jpg")
        let request = ImageRequest(url: url, maxPixelSize: 100)
        let cache = fixture.pipeline.cache
        // Given nothing cached, When original bytes are stored for the request
        #expect(cache.storedImage(for: request) == nil)
        #expect(await cache.cachedData(for: request) == nil)
        let stored = Data(VersionedLoader.signature + Array("stored|by|hand".utf8))
        try await cache.storeCachedData(stored, for: request)
        // Then the pipeline decodes them without a load, and the memory cache now holds the image
        let response = try await fixture.pipeline.image(for: request)
        #expect(Self.payload(response) == "stored|by|hand" && response.source == .diskCache)
        #expect(fixture.loader.totalLoads == 0)
        #expect(await cache.cachedData(for: request) == stored)
        #expect(cache.storedImage(for: request).map(Self.payload) == "stored|by|hand")
        // When both are removed, Then the next request loads from the source
        await cache.removeCachedImage(for: request)
        await cache.removeCachedData(for: request)
        #expect(cache.storedImage(for: request) == nil)
        #expect(await cache.cachedData(for: request) == nil)
        #expect(Self.payload(try await fixture.pipeline.image(for: request)).hasSuffix("|v1"))
        // And an image stored by hand is what the request gets from memory
        let image = DecodedImage(
            image: PixelImage(width: 1, height: 1, pixelFormat: .gray8, pixels: [9]),
            info: .init(format: .png, width: 1, height: 1))
        cache.storeCachedImage(image, for: request)
        #expect(try await fixture.pipeline.image(for: request).image.pixels == [9])
    }

    @Test func customSchemesAndDataURLsLoadAndUnknownSchemesAreRefused() async throws {
        // Given a pipeline with a loader for asset:// URLs
        let assets = RecordingLoader()
        let fixture = try Fixture(diskCache: false) { $0.dataLoaders = ["asset": assets] }
        // When an asset URL, a data: URL and an ftp URL are asked
        let asset = try await fixture.pipeline.image(for: ImageRequest(url: URL(string: "asset://icons/star")!))
        let inline = try await fixture.pipeline.image(for: ImageRequest(url: payloadDataURL("inline|bytes")))
        // Then the asset loader served the first, the data: URL carried its own bytes, no HTTP load happened
        #expect(Self.payload(asset) == "asset://icons/star|v1" && assets.requests.count == 1)
        #expect(Self.payload(inline) == "inline|bytes" && inline.source == .providedData)
        #expect(fixture.loader.totalLoads == 0)
        // And a scheme nobody loads is refused
        await #expect {
            _ = try await fixture.pipeline.image(for: ImageRequest(url: URL(string: "ftp://x/y.jpg")!))
        } throws: { ($0 as? PinholeError)?.code == .invalidRequest }
        // And a data: URL that does not decode as base64 is refused as well
        await #expect {
            _ = try await fixture.pipeline.image(for: ImageRequest(url: URL(string: "data:image/png;base64,@@@")!))
        } throws: { ($0 as? PinholeError)?.code == .invalidRequest }
    }

    @Test func bytesInHandAreDecodedWithoutAnyLoad() async throws {
        let fixture = try Fixture()
        let bytes = Data(VersionedLoader.signature + Array("from|the|database".utf8))
        let request = ImageRequest(id: "avatar-42", data: bytes, thumbnail: ThumbnailOptions(maxPixelSize: 64))
        // When decoded twice
        let first = try await fixture.pipeline.image(for: request)
        let second = try await fixture.pipeline.image(for: request)
        // Then no loader was asked, nothing went to disk, the second came from memory, and the response names its
        // request
        #expect(Self.payload(first) == "from|the|database" && first.source == .providedData)
        #expect(second.source == .memoryCache && second.request == request)
        #expect(fixture.loader.totalLoads == 0)
        #expect(await fixture.pipeline.diskCache()?.count == 0)
        #expect(request.sourceKey == "avatar-42")
        // And bytes that are no image fail as such
        let html = ImageRequest(id: "bad", data: Data("<html></html>".utf8))
        await #expect { _ = try await fixture.pipeline.image(for: html) } throws: {
            ($0 as? PinholeError)?.code == .notAnImage
        }
    }

    @Test func conveniencesCompileAndAnswer() async throws {
        let fixture = try Fixture(diskCache: false)
        let url = Fixture.url("c.jpg")
        // The forms people type first
        let full = try await fixture.pipeline.image(for: url)
        let small = try await fixture.pipeline.image(
            for: ImageRequest(url: url, maxPixelSize: 40, options: [.disableMemoryCacheWrites]))
        #expect(full.request == ImageRequest(url: url) && full.image.width == 400)
        #expect(small.image.width == 40 && small.request.options == [.disableMemoryCacheWrites])
    }

    @Test func twoPipelinesOnOneDirectoryShareOneDiskCache() async throws {
        // Given two pipelines given one directory (spelled two ways)
        let first = try Fixture()
        var configuration = ImagePipeline.Configuration(decoder: PayloadDecoder(), dataLoader: VersionedLoader())
        configuration.diskCacheDirectory = first.directory.appendingPathComponent(".")
        let second = ImagePipeline(configuration: configuration)
        // Then they use one DiskCache instance (one index, one size limit)
        let a = try #require(await first.pipeline.diskCache())
        let b = try #require(await second.diskCache())
        #expect(a === b)
        // And what one stores the other reads
        _ = try await first.pipeline.image(for: ImageRequest(url: Fixture.url("shared.jpg")))
        #expect(try await second.image(for: ImageRequest(url: Fixture.url("shared.jpg"))).source == .diskCache)
    }
}

/// What each disk-cache policy stores, per kind of request.
@Suite(.timeLimit(scaledMinutes: 1))
struct DiskCachePolicyTests {
    static let url = URL(string: "https://images.example/p.jpg")!
    static let full = ImageRequest(url: url)
    static let thumbnail = ImageRequest(url: url, maxPixelSize: 100)
    static let processed = ImageRequest(url: url, processors: [TaggingProcessor(tag: "x")])

    @Test func eachPolicyStoresWhatItSays() {
        // (policy, stores originals for full / thumbnail / processed, stores encoded for full / thumbnail / processed)
        let expectations: [(DiskCachePolicy, [Bool], [Bool])] = [
            (.storeOriginalData, [true, true, true], [false, false, false]),
            (.storeEncodedImages, [false, false, false], [true, true, true]),
            (.storeAll, [true, true, true], [true, true, true]),
            (.automatic, [true, false, false], [false, true, true]),
        ]
        for (policy, originals, encoded) in expectations {
            let requests = [Self.full, Self.thumbnail, Self.processed]
            #expect(requests.map(policy.storesOriginalData(for:)) == originals, "\(policy)")
            #expect(requests.map(policy.storesEncodedImages(for:)) == encoded, "\(policy)")
        }
    }

    @Test func storeEncodedImagesKeepsNoOriginalOnDisk() async throws {
        // Given a pipeline that stores encoded images only (an encoder that keeps the payload in the bytes)
        let fixture = try Fixture { configuration in
            configuration.diskCachePolicy = .storeEncodedImages
            configuration.encoder = PayloadEncoder()
        }
        let request = ImageRequest(url: Fixture.url("e.jpg"), maxPixelSize: 100)
        _ = try await fixture.pipeline.image(for: request)
        // Then the disk holds the encoded image and not the original bytes
        #expect(await fixture.pipeline.cache.containsEncodedImage(for: request))
        #expect(await fixture.pipeline.cache.cachedData(for: request) == nil)
        // And a new pipeline over the same directory answers from it without a load or a decode
        let loader = VersionedLoader()
        var configuration = ImagePipeline.Configuration(
            decoder: PayloadDecoder(), dataLoader: loader, encoder: PayloadEncoder())
        configuration.diskCacheDirectory = fixture.directory
        configuration.diskCachePolicy = .storeEncodedImages
        let again = ImagePipeline(configuration: configuration)
        let response = try await again.image(for: request)
        #expect(response.source == .diskCache && loader.totalLoads == 0)
        #expect(again.metrics.thumbnailDiskHits == 1 && again.metrics.decodes == 0)
        #expect(Fixture.payload(response).hasSuffix("|v1"))
    }

    typealias Fixture = VersionedPipeline
}
