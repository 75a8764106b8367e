import Foundation
import Pinhole
import PinholeCurl
import PinholeShared
import PinholeTestServer
import PinholeTestSupport
import Testing

/// No transfer outlives its caller, whichever instant the cancellation lands at: before the call, between the
/// cancellation flag and the handler, while connecting, while a redirect is answered or followed, mid-body.
@Suite(.timeLimit(scaledMinutes: 2))
struct HTTPCancellationRaceTests {
    enum Outcome: Sendable, Equatable {
        case success
        case cancelled
        case failure(String)
    }

    /// Two redirect chains, each hop answering after 2–4 ms: /a0 → /a1 → /a2 → /final.jpg (an image), and
    /// /b0 → /b1 → /b2 → /never.jpg, which never answers, so only a removal ends a transfer that reached it.
    static func redirectChains(on server: PinholeTestServer) async throws {
        let image = try await Fixture.input("orient-1.jpg")
        for (chain, end) in [("a", "/final.jpg"), ("b", "/never.jpg")] {
            for hop in 0..<3 {
                var route = Route.redirect(to: hop == 2 ? end : "/\(chain)\(hop + 1)")
                route.latency = .milliseconds(hop + 2)
                server.route("/\(chain)\(hop)", route)
            }
        }
        server.route("/final.jpg", .image(image, latency: .milliseconds(2)))
        server.route("/never.jpg", Route(behavior: .neverRespond))
    }

    /// A loader whose own limits would hold a silent transfer for a minute: only a removal ends one sooner.
    static func patientLoader() -> HTTPDataLoader {
        var settings = HTTPDataLoader.Configuration()
        settings.stallTimeout = .seconds(60)
        settings.deadline = .seconds(60)
        settings.maxConnectionsPerHost = 16
        return HTTPDataLoader(configuration: settings)
    }

    /// A caller that loads `url` and records how it was answered under `index`.
    static func caller(
        _ index: Int, url: URL, loader: HTTPDataLoader, outcomes: Locked<[Int: [Outcome]]>
    ) -> Task<Void, Never> {
        Task {
            let outcome: Outcome
            do {
                _ = try await loader.loadData(for: DataRequest(url: url))
                outcome = .success
            } catch is CancellationError {
                outcome = .cancelled
            } catch {
                outcome = .failure("\(error)")
            }
            outcomes.withLock { $0[index, default: []].append(outcome) }
        }
    }

    @Test func aStormOfCancellationsAroundTheStartAndDuringRedirectsLeavesNothingBehind() async throws {
        // Given two redirect chains (one ends in an image, one in a server that never answers), a loader whose
        // own limits would keep a transfer for a minute, and 400 callers, each cancelled at a seeded random
        // instant: at once (before the transfer begins), after a few yields (around begin), or 0–30 ms in
        // (connecting, between redirects, receiving)
        let server = try PinholeTestServer()
        try await Self.redirectChains(on: server)
        let loader = Self.patientLoader()
        var generator = SplitMix64(seed: 13)
        let callers = 400
        let outcomes = Locked<[Int: [Outcome]]>([:])
        var tasks: [Task<Void, Never>] = []  // callers and cancellers, all cancelled when the test ends
        defer { for task in tasks { task.cancel() } }
        for index in 0..<callers {
            let kind = Int.random(in: 0..<3, using: &generator)
            let yields = Int.random(in: 0..<8, using: &generator)
            let delay = Duration.microseconds(Int.random(in: 0..<30_000, using: &generator))
            let url = server.url(Bool.random(using: &generator) ? "/a0" : "/b0")
            let task = Self.caller(index, url: url, loader: loader, outcomes: outcomes)
            tasks.append(task)
            switch kind {
            case 0:
                task.cancel()
            case 1:
                tasks.append(
                    Task {
                        for _ in 0..<yields { await Task.yield() }
                        task.cancel()
                    })
            default:
                tasks.append(
                    Task {
                        try? await Task.sleep(for: delay)
                        task.cancel()
                    })
            }
            if index % 20 == 19 { try? await Task.sleep(for: .milliseconds(5)) }  // waves, as rows scroll by
        }
        // And 10 more callers that certainly reach /never.jpg before they are cancelled, all at once
        let reached = server.requestCount(for: "/never.jpg")
        for index in callers..<(callers + 10) {
            tasks.append(Self.caller(index, url: server.url("/b0"), loader: loader, outcomes: outcomes))
        }
        #expect(await eventually { server.requestCount(for: "/never.jpg") >= reached + 10 })
        for task in tasks.suffix(10) { task.cancel() }
        // When every caller has been answered (bounded: a caller never answered fails here, it does not hang)
        let answered = await eventually(timeout: .seconds(60)) { outcomes.withLock { $0.count } == callers + 10 }
        try #require(answered, "\(outcomes.withLock { $0.count }) of \(callers + 10) callers answered")
        // Then each was answered exactly once, only with its image or CancellationError
        let all = outcomes.withLock { $0 }
        #expect(all.values.allSatisfy { $0.count == 1 })
        let flat = all.values.flatMap { $0 }
        let unexpected = flat.filter { $0 != .success && $0 != .cancelled }
        #expect(unexpected.isEmpty, "\(unexpected)")
        #expect(flat.contains(.cancelled))
        // And the loader holds no transfer, and every request the server started has ended (none lives on: a
        // transfer left in libcurl would sit on /never.jpg for a minute)
        #expect(await eventually { loader.activeTransferCount == 0 })
        #expect(
            await eventually {
                let stats = server.stats
                return stats.requestsStarted == stats.requestsCompleted + stats.requestsAborted
            }, "\(server.stats)")
    }

    @Test func aCallerCancelledWhileTheServerPreparesARedirectIsAnsweredAtOnceAndTheServerSeesTheAbort() async throws {
        // Given a redirect whose answer takes 10 s (the instant that traps URLSession on Linux)
        let server = try PinholeTestServer()
        var slowRedirect = Route.redirect(to: "/final.jpg")
        slowRedirect.latency = .seconds(10)
        server.route("/slow-redirect", slowRedirect)
        server.route("/final.jpg", .image(try await Fixture.input("orient-1.jpg")))
        let loader = Self.patientLoader()
        let task = Task { try await loader.loadData(for: DataRequest(url: server.url("/slow-redirect"))) }
        #expect(await eventually { server.requestCount(for: "/slow-redirect") == 1 })
        // When the caller is cancelled
        task.cancel()
        // Then it gets CancellationError, the server sees the client go, and the target is never asked for
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(await eventually { server.stats.requestsAborted == 1 })
        #expect(await eventually { loader.activeTransferCount == 0 })
        #expect(server.requestCount(for: "/final.jpg") == 0)
    }

    @Test func aCallerCancelledWhileTheRedirectTargetIsFetchedStopsThatHop() async throws {
        // Given a quick redirect to a target that answers after 10 s
        let server = try PinholeTestServer()
        server.route("/hop", .redirect(to: "/slow-target.jpg", status: 307))
        server.route("/slow-target.jpg", .image(try await Fixture.input("orient-1.jpg"), latency: .seconds(10)))
        let loader = Self.patientLoader()
        let task = Task { try await loader.loadData(for: DataRequest(url: server.url("/hop"))) }
        #expect(await eventually { server.requestCount(for: "/slow-target.jpg") == 1 })
        // When the caller is cancelled mid-redirect
        task.cancel()
        // Then the target's request is aborted at the server and the loader holds nothing
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(await eventually { server.stats.requestsAborted == 1 })
        #expect(await eventually { loader.activeTransferCount == 0 })
        #expect(await eventually { server.stats.requestsCompleted == 1 })  // the redirect itself
    }
}

/// A small seeded generator (SplitMix64), so a failing storm can be replayed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
