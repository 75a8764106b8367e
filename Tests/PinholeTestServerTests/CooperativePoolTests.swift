import Foundation
import Glibc
import PinholeTestServer
import Testing

@Suite(.timeLimit(.minutes(1)))
struct CooperativePoolTests {
    /// The server exists for tests and benchmarks that fill Swift's cooperative pool on purpose: it must answer
    /// while every pool thread is taken.
    @Test func answersWhileCooperativePoolIsSaturated() async throws {
        // Given a server, and tasks that hold every thread of the default cooperative pool (blocked, not
        // spinning, so the rest of the machine keeps its CPU)
        let server = try PinholeTestServer()
        defer { server.stop() }
        server.route("/busy", .html("still here"))
        let poolWidth = ProcessInfo.processInfo.activeProcessorCount
        let blockers = PoolBlockers()
        let blockingTasks = (0..<poolWidth).map { _ in
            Task.detached(priority: .medium) { blockers.holdThread() }
        }

        // When a client on a thread of its own asks while the pool is full
        let port = server.port
        let (reply, heldWhileAnswered) = await TestSupport.onOwnThread { () -> (String, Bool) in
            blockers.waitUntilHeld(count: poolWidth)
            guard let client = RawClient(port: port) else { return ("", false) }
            client.send("GET /busy HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let reply = String(decoding: client.receiveAll(), as: UTF8.self)
            let held = blockers.heldCount == poolWidth
            blockers.releaseAll()
            return (reply, held)
        }
        for task in blockingTasks { await task.value }

        // Then the answer came while every pool thread was still held
        #expect(reply.hasPrefix("HTTP/1.1 200 OK"))
        #expect(reply.hasSuffix("still here"))
        #expect(heldWhileAnswered)
    }
}

/// Holds cooperative-pool threads until released. The condition guards both stored vars.
private final class PoolBlockers: @unchecked Sendable {
    // Invariant: `held` and `released` are only read or written while `condition` is locked.
    private let condition = NSCondition()
    private var held = 0
    private var released = false
    /// Upper bound on any wait, so a broken server fails the test instead of hanging the process.
    private let safetyTimeout: TimeInterval = 10

    /// Blocks the calling (pool) thread until ``releaseAll()`` or the safety timeout.
    func holdThread() {
        condition.lock()
        held += 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: safetyTimeout)
        while !released && condition.wait(until: deadline) {}
        held -= 1
        condition.unlock()
    }

    func waitUntilHeld(count: Int) {
        condition.lock()
        let deadline = Date(timeIntervalSinceNow: safetyTimeout)
        while held < count && condition.wait(until: deadline) {}
        condition.unlock()
    }

    var heldCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return held
    }

    func releaseAll() {
        condition.lock()
        released = true
        condition.broadcast()
        condition.unlock()
    }
}
