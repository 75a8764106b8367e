import Foundation
import Pinhole
import PinholeServer
import PinholeTestServer
import PinholeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The built `pinhole serve` as a child process: its options, a signed request, and SIGTERM with requests in flight.
@Suite(.timeLimit(scaledMinutes: 3))
struct ServeCommandEndToEndTests {
    /// Starts `pinhole serve` on a kernel-chosen port; returns the child and its port once it listens.
    static func start(
        _ arguments: [String], environment: [String: String]? = nil
    ) async throws -> (SpawnedProcess, Int) {
        let child = try SpawnedProcess(
            [PinholeExecutable.path, "serve", "--listen", "127.0.0.1:0"] + arguments, environment: environment)
        var port: Int?
        _ = await eventually(timeout: .seconds(30), every: .milliseconds(20)) {
            let text = await child.stderr()
            if let range = text.range(of: "serving on 127.0.0.1:") {
                port = Int(text[range.upperBound...].prefix { $0.isNumber })
            }
            return port != nil || child.hasExited
        }
        let stderr = await child.stderr()
        return (child, try #require(port, "pinhole serve did not start: \(stderr)"))
    }

    @Test func helpDocumentsEveryOptionWithItsDefault() async throws {
        let result = try await SpawnedProcess.run([PinholeExecutable.path, "serve", "--help"])
        #expect(result.status == 0)
        for option in [
            "--listen", "--key", "--salt", "--allow-unsigned", "--allow-source", "--cache-dir", "--max-src-pixels",
            "--max-src-bytes", "--concurrency", "--memory-budget",
        ] {
            #expect(result.stdout.contains(option), "\(option)")
        }
        #expect(result.stdout.contains("Default: 127.0.0.1:8080"))
    }

    @Test func signPrintsThePathWithItsSignatureInFront() async throws {
        let result = try await SpawnedProcess.run([
            PinholeExecutable.path, "serve", "--key", "736563726574", "--salt", "68656C6C6F", "--sign",
            URLSignerTests.documentedPath,
        ])
        #expect(result.status == 0)
        #expect(result.stdout == "/\(URLSignerTests.documentedSignature)\(URLSignerTests.documentedPath)\n")
    }

    @Test func signRefusesAPathTheServerWouldRefuse() async throws {
        let result = try await SpawnedProcess.run([
            PinholeExecutable.path, "serve", "--key", "736563726574", "--sign", "/zoom:2/plain/http://e.com/a.jpg",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown processing option 'zoom'"))
        #expect(result.stdout.isEmpty)
    }

    @Test func withoutAKeyOrAllowUnsignedItRefusesToStart() async throws {
        let result = try await SpawnedProcess.run(
            [PinholeExecutable.path, "serve"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--key"))
    }

    @Test func aSecondSignalDuringTheDrainExitsAtOnceWithStatus1() async throws {
        // Given the binary draining a request stuck on an origin that never answers
        let origin = try PinholeTestServer()
        defer { origin.stop() }
        origin.route("/never.jpg", Route(behavior: .neverRespond))
        let (child, port) = try await Self.start([
            "--allow-unsigned", "--allow-source", origin.baseURL.absoluteString, "--timeout", "600",
        ])
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let stuck = Task {
            _ = try? await session.data(
                from: URL(string: "http://127.0.0.1:\(port)/_/w:10/plain/\(origin.url("/never.jpg").absoluteString)")!)
        }
        #expect(await eventually { origin.requestCount(for: "/never.jpg") == 1 })
        child.kill(SIGTERM)
        #expect(await eventually { await child.stderr().contains("draining") })
        // When a second SIGTERM arrives
        child.kill(SIGTERM)
        // Then the process exits with status 1 without waiting for the drain
        #expect(try await child.waitForExit(timeout: .seconds(20)) == 1)
        #expect(await child.stderr().contains("second signal"))
        // (the stuck request ends with the process; it is never cancelled: cancelling a URLSession request can
        // block a cooperative thread on Linux)
        _ = await stuck.value
    }

    @Test func sigtermFinishesRequestsInFlightRefusesNewOnesAndExitsZero() async throws {
        // Given the binary serving with a key from the environment, and an origin that holds its answer until the
        // test opens a gate (a latency bets on timing: 1.5 s let both answers finish before the late request on a
        // loaded machine, and 3 s × the load factor outlasted the server's 15 s stall timeout at a load of 11 on
        // 2 cores, so neither answer was a 200)
        let origin = try PinholeTestServer()
        defer { origin.stop() }
        let gate = ResponseGate()
        origin.route("/slow.jpg", .image(try await OriginImages.halves(), gate: gate))
        origin.route("/p.jpg", .image(try await OriginImages.halves()))
        let signer = try URLSigner(keyHex: ServerHarness.keyHex, saltHex: ServerHarness.saltHex)
        // (in the child's environment alone: setenv here would race with this process's other tests)
        var environment = ProcessInfo.processInfo.environment
        environment["PINHOLE_KEY"] = ServerHarness.keyHex
        environment["PINHOLE_SALT"] = ServerHarness.saltHex
        let (child, port) = try await Self.start(
            ["--allow-source", origin.baseURL.absoluteString], environment: environment)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        func get(_ path: String) async throws -> Int {
            let (_, response) = try await session.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            return (response as? HTTPURLResponse)?.statusCode ?? -1
        }
        // When two requests are in flight and the server gets SIGTERM
        let slow = signer.signedPath("/w:100/plain/\(origin.url("/slow.jpg").absoluteString)")
        let slowOther = signer.signedPath("/w:60/plain/\(origin.url("/slow.jpg").absoluteString)")
        let first = Task { try await get(slow) }
        let second = Task { try await get(slowOther) }
        let metrics = URL(string: "http://127.0.0.1:\(port)/metrics")!
        #expect(
            await eventually {
                let text = (try? await session.data(from: metrics)).map { String(decoding: $0.0, as: UTF8.self) }
                return text?.contains("pinhole_http_requests_in_flight 2") == true
            })
        child.kill(SIGTERM)
        #expect(await eventually { await child.stderr().contains("draining") })
        // Then a new request is refused with 503 while they finish with 200, and the process exits 0
        let late = try await get(signer.signedPath("/w:100/plain/\(origin.url("/p.jpg").absoluteString)"))
        #expect(late == 503)
        gate.open()
        #expect(try await first.value == 200)
        #expect(try await second.value == 200)
        #expect(try await child.waitForExit(timeout: .seconds(60)) == 0)
        #expect(origin.requestCount(for: "/p.jpg") == 0)
        // And the access log on stdout has a JSON line for each request (the /metrics polls included)
        let lines = await child.stdout().split(separator: "\n").filter { !$0.contains("/metrics") }
        #expect(lines.count == 3)
        #expect(origin.requestCount(for: "/slow.jpg") == 1)
    }
}
