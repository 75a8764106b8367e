import Foundation
import Pinhole
import PinholeTestServer
import PinholeTestSupport
import Testing

/// An origin that answers 429 or 503 with `Retry-After` is not asked again for that source before the wait it
/// asked for (RFC 9110 §10.2.3), at most for ``ImagePipeline/Configuration/failureMemoryTTL``; the failure kept
/// for it answers with a wait that counts down. A real pipeline (libcurl) against the loopback server.
@Suite(.timeLimit(scaledMinutes: 2))
struct RetryAfterBackoffTests {
    static let path = "/limited.jpg"

    static func httpDate(secondsFromNow seconds: TimeInterval) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date().addingTimeInterval(seconds))
    }

    /// A harness whose origin answers ``path`` with `status` and `headers`.
    static func serving(
        _ status: Int, _ headers: [String: String],
        configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) throws -> Harness {
        let harness = try Harness(configure: configure)
        var fields = headers
        fields["content-type"] = "text/plain"
        harness.server.route(path, Route(status: status, headers: fields, body: Data("slow down".utf8)))
        return harness
    }

    /// The error `request` fails with (a success is recorded as an issue).
    static func failure(_ harness: Harness, _ request: ImageRequest) async throws -> PinholeError {
        let result = await Result { try await harness.pipeline.image(for: request) }
        guard case .failure(let error) = result else {
            Issue.record("\(request.url) loaded, expected a failure")
            throw CancellationError()
        }
        return try #require(error as? PinholeError)
    }

    @Test(arguments: [
        (429, ["retry-after": "30"]), (503, ["retry-after": "30"]), (503, ["retry-after": " 0030 "]),
        (503, ["retry-after": "<an HTTP-date 60 s from when the test runs>"]),
        (429, ["retry-after": "30", "cache-control": "no-store"]),
        (503, ["retry-after": "30", "cache-control": "max-age=0"]),
    ])
    func aRateLimitedSourceIsNotAskedAgainBeforeItsWait(status: Int, headers: [String: String]) async throws {
        // Given an origin that answers the source with a 429 or 503 asking for a wait (a date is made now: the
        // arguments are made when the run starts, maybe minutes before this case)
        var headers = headers
        if headers["retry-after"]?.hasPrefix("<") == true { headers["retry-after"] = Self.httpDate(secondsFromNow: 60) }
        let harness = try Self.serving(status, headers)
        let request = harness.request(Self.path)
        // When the source is loaded twice within the wait
        let first = try await Self.failure(harness, request)
        let second = try await Self.failure(harness, request)
        // Then the origin was asked once, and both loads failed with its status
        #expect(harness.server.requestCount(for: Self.path) == 1)
        #expect(first.httpStatusCode == status && second.httpStatusCode == status)
        #expect(harness.pipeline.metrics.failureHits == 1)
    }

    @Test(arguments: [
        (503, [:]), (503, ["retry-after": "soon"]), (503, ["retry-after": "0"]), (503, ["retry-after": "-5"]),
        (429, ["retry-after": httpDate(secondsFromNow: -60)]), (500, ["retry-after": "30"]),
        (502, ["retry-after": "30"]),
    ])
    func withoutAWaitToHonourTheSourceIsAskedAgain(status: Int, headers: [String: String]) async throws {
        // Given a failure with no Retry-After, one that is not a wait, or a status that does not ask for one
        let harness = try Self.serving(status, headers)
        let request = harness.request(Self.path)
        // When the source is loaded twice
        _ = try await Self.failure(harness, request)
        _ = try await Self.failure(harness, request)
        // Then the origin was asked both times
        #expect(harness.server.requestCount(for: Self.path) == 2)
    }

    @Test func theWaitEndsTheBackoffBeforeTheFailureTTL() async throws {
        // Given a 503 asking for 1 s, and the default 30 s failure TTL
        let harness = try Self.serving(503, ["retry-after": "1"])
        let request = harness.request(Self.path)
        _ = try await Self.failure(harness, request)
        // When the source is loaded again after the wait
        try await Task.sleep(for: .milliseconds(1500))
        _ = try await Self.failure(harness, request)
        // Then the origin was asked again
        #expect(harness.server.requestCount(for: Self.path) == 2)
    }

    @Test func theFailureTTLBoundsALongerWait() async throws {
        // Given a 429 asking for an hour, and a 300 ms failure TTL
        let harness = try Self.serving(429, ["retry-after": "3600"]) { $0.failureMemoryTTL = .milliseconds(300) }
        let request = harness.request(Self.path)
        _ = try await Self.failure(harness, request)
        // When the source is loaded again after the TTL
        try await Task.sleep(for: .milliseconds(600))
        _ = try await Self.failure(harness, request)
        // Then the origin was asked again
        #expect(harness.server.requestCount(for: Self.path) == 2)
    }

    @Test func aReloadAsksTheOriginDuringTheWait() async throws {
        // Given a 429 asking for 30 s, kept in memory
        let harness = try Self.serving(429, ["retry-after": "30"])
        let request = harness.request(Self.path)
        _ = try await Self.failure(harness, request)
        // When a reload asks for the source
        var reload = request
        reload.options.insert(.reloadIgnoringCachedData)
        _ = try await Self.failure(harness, reload)
        // Then it reached the origin
        #expect(harness.server.requestCount(for: Self.path) == 2)
    }

    @Test func theKeptFailuresWaitCountsDownFromTheOriginsAnswer() async throws {
        // Given a 503 asking for 120 s
        let harness = try Self.serving(503, ["retry-after": "120"])
        let request = harness.request(Self.path)
        let asked = Date()
        _ = try await Self.failure(harness, request)
        let answered = Date()
        // When the kept failure answers 2 s later
        try await Task.sleep(for: .seconds(2))
        let kept = try await Self.failure(harness, request)
        // Then its wait ends 120 s after the origin's answer (rounded up to the second), not 120 s after this one;
        // bounded by the clock read before the question and after the answer, however long the round trip took
        let value = try #require(kept.httpResponse?.headers["retry-after"])
        let date = try #require(HTTPDate.parse(value), "\(value)")
        #expect(date >= asked.addingTimeInterval(119), "\(value)")
        #expect(date <= answered.addingTimeInterval(121), "\(value)")
        // And as seconds it is what is left of that wait
        let now = Date()
        let left = try #require(HTTPRetryAfter.seconds(of: kept, now: now, limit: 3_600))
        #expect(abs(Double(left) - date.timeIntervalSince(now)) <= 1 && left < 120, "\(left) s left")
    }

    // MARK: - The wait and the disk cache

    /// A harness with a disk cache whose origin served ``path`` as an image with `cacheControl` and a validator,
    /// loaded once at 100 px, and now answers `status` asking for a 30 s wait.
    static func storedThenLimited(_ status: Int, cacheControl: String) async throws -> Harness {
        let harness = try Harness(diskCache: true)
        harness.server.route(
            path,
            Route(
                headers: ["content-type": "image/jpeg", "cache-control": cacheControl],
                body: try await Fixture.input("orient-1.jpg"), etag: "v1"))
        #expect(try await harness.pipeline.image(for: harness.request(path, size: 100)).source == .network)
        try #require(await eventually { await harness.pipeline.diskCache()?.count == 1 })
        harness.server.route(path, Route(status: status, headers: ["retry-after": "30"], body: Data("wait".utf8)))
        return harness
    }

    @Test(arguments: [429, 503])
    func aStaleCopyStandsInForTheWholeWaitWithoutAskingTheOriginAgain(status: Int) async throws {
        // Given a stale stored image whose origin now answers 429 or 503 asking for 30 s
        let harness = try await Self.storedThenLimited(status, cacheControl: "max-age=0")
        let restarted = try harness.restarted()
        // When four sizes of it are asked for, one after another
        for size in [120, 140, 160, 180] {
            let response = try await restarted.pipeline.image(for: restarted.request(Self.path, size: size))
            // Then each is the stale copy
            #expect(response.source == .diskCache, "\(size)")
        }
        // And the origin was asked once during the wait (the first revalidation), not once per size
        #expect(harness.server.requestCount(for: Self.path) == 2)
        #expect(restarted.pipeline.metrics.staleHits == 4)
    }

    @Test(arguments: ["max-age=600", "max-age=0"])
    func aWaitKeptByAReloadDoesNotHideTheStoredImage(cacheControl: String) async throws {
        // Given a stored image, fresh or stale, and a reload of it answered 429 asking for 30 s
        let harness = try await Self.storedThenLimited(429, cacheControl: cacheControl)
        var reload = harness.request(Self.path, size: 40)
        reload.options.insert(.reloadIgnoringCachedData)
        let reloadError = try await Self.failure(harness, reload)
        #expect(reloadError.httpStatusCode == 429)
        // When another size is asked for during the wait
        let response = try await harness.pipeline.image(for: harness.request(Self.path, size: 150))
        // Then the stored image answers (fresh, or stale standing in), and the origin is not asked again
        #expect(response.source == .diskCache)
        #expect(harness.server.requestCount(for: Self.path) == 2)
    }

    @Test func aWaitOutlastsTheFailureStoredOnDiskWithIt() async throws {
        // Given a disk cache, and an origin whose 503 asks for a 20 s wait and may be stored for 1 s
        let harness = try Harness(diskCache: true)
        harness.server.route(
            Self.path,
            Route(
                status: 503, headers: ["retry-after": "20", "cache-control": "max-age=1"], body: Data("busy".utf8)))
        let request = harness.request(Self.path)
        let asked = Date()
        _ = try await Self.failure(harness, request)
        let answered = Date()
        try #require(await eventually { await harness.pipeline.diskCache()?.count == 1 })
        // When the source is asked for at once, and again once the stored failure is stale
        let soon = try await Self.failure(harness, request)
        try await Task.sleep(for: .milliseconds(1500))
        let later = try await Self.failure(harness, request)
        // Then both answers carry the end of the origin's 20 s wait (bounded by the clock read around its answer,
        // rounded up to the second), and the origin was not asked again within it
        for kept in [soon, later] {
            let value = kept.httpResponse?.headers["retry-after"] ?? ""
            let date = try #require(HTTPDate.parse(value), "\(value)")
            #expect(date >= asked.addingTimeInterval(19) && date <= answered.addingTimeInterval(21), "\(value)")
        }
        #expect(harness.server.requestCount(for: Self.path) == 1)
    }
}
