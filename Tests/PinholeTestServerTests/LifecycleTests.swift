import Foundation
import Glibc
import PinholeTestServer
import PinholeTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite(.timeLimit(scaledMinutes: 1))
struct LifecycleTests {
    @Test func bindsLoopbackOnSystemChosenPort() async throws {
        // Given two servers
        let first = try PinholeTestServer()
        let second = try PinholeTestServer()

        // Then each has its own port and URLs built on 127.0.0.1
        #expect(first.port > 0 && second.port > 0 && first.port != second.port)
        #expect(first.baseURL.absoluteString == "http://127.0.0.1:\(first.port)")
        #expect(first.url("/a.jpg?x=1").absoluteString == "http://127.0.0.1:\(first.port)/a.jpg?x=1")
        #expect(first.url("b").path == "/b")
        await first.shutDown()
        await second.shutDown()
    }

    /// Counting all of /proc/self/fd is exact only when nothing else runs; other suites (and other test
    /// targets in the same process) open files in parallel. So the test counts the /proc/self/fd entries that
    /// point at the server's own sockets (by inode), which is exact under any parallelism.
    @Test func stopReleasesPortAndEveryDescriptor() async throws {
        // Given a server with a client connection open on it
        let server = try PinholeTestServer()
        server.route("/x", .html("x"))
        let port = server.port
        let client = await TestSupport.onOwnThread { () -> Int32 in
            guard let client = RawClient(port: port) else { return -1 }
            client.send("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = client.receive(untilSeen: "\r\n\r\nx")
            return dup(client.fd)
        }
        #expect(try await TestSupport.eventually { server.stats.openConnections == 1 })
        let owned = server.openDescriptors.map { ($0, TestSupport.identity(of: $0)) }
        #expect(owned.count == 4)  // listener, two wake ends, one connection
        let ownedTargets = Set(owned.map { TestSupport.target(of: $0.0) })
        #expect(ownedTargets.count == 4 && ownedTargets.allSatisfy { $0.hasPrefix("socket:[") })
        #expect(TestSupport.openFileTargets().filter(ownedTargets.contains).count == 4)

        // When it stops (and the client leaves)
        await server.shutDown()
        close(client)

        // Then no /proc/self/fd entry points at its sockets any more, and the port can be bound again
        #expect(TestSupport.openFileTargets().filter(ownedTargets.contains).count == 0)
        for (fd, identity) in owned {
            let now = TestSupport.identity(of: fd)
            #expect(now == nil || now != identity, "descriptor \(fd) still open")
        }
        #expect(server.openDescriptors.isEmpty)
        #expect(TestSupport.canListen(onPort: port))
    }

    @Test func stopEndsWaitingRequestsAndIsIdempotent() async throws {
        // Given a server with a request stalled in a 30 s latency
        let server = try PinholeTestServer()
        server.route("/wait", .html("late", status: 200))
        server.route("/wait", Route(body: Data("late".utf8), latency: .seconds(30)))
        let port = server.port
        async let reply = RawClient.exchange(port: port, "GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
        try #require(try await TestSupport.eventually { server.requestCount(for: "/wait") == 1 })

        // When it stops, twice (the second call returns at once), the blocking form too
        await server.shutDown()
        await server.shutDown()
        server.stop()

        // Then the client saw the connection close without a response, and nothing counts as completed
        #expect(await reply == "")
        #expect(server.stats.openConnections == 0)
        #expect(server.stats.requestsCompleted == 0)
        #expect(server.stats.requestsAborted == 0)
    }

    @Test func stopWorksWhileRequestsAreInFlight() async throws {
        // Given many clients waiting on slow and never-answered routes
        let server = try PinholeTestServer()
        server.route("/slow", Route(body: Data(count: 100), latency: .seconds(10)))
        server.route("/never", Route(behavior: .neverRespond))
        let session = TestSupport.makeSession(maxConnectionsPerHost: 50)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                let url = server.url(index.isMultiple(of: 2) ? "/slow" : "/never")
                group.addTask { _ = try? await session.data(from: url) }
            }
            try #require(try await TestSupport.eventually(timeout: .seconds(30)) { server.stats.requestsStarted == 40 })

            // When the server stops
            await server.shutDown()

            // Then every connection is gone and every client call returns
            #expect(server.stats.openConnections == 0)
            try await group.waitForAll()
        }
    }
}

extension TestSupport {
    /// `readlink` of one descriptor, e.g. `socket:[123]`.
    static func target(of fd: Int32) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) ?? "closed"
    }

    /// Whether a listener can bind 127.0.0.1:`port` (with `SO_REUSEADDR`, as servers do).
    static func canListen(onPort port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return bound == 0 && listen(fd, 1) == 0
    }
}
