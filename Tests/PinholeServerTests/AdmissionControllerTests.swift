import Foundation
import PinholeServer
import PinholeShared
import PinholeTestSupport
import Testing

/// Admission by count at arrival and by memory before work: what is granted at once, what waits and in which
/// order, and what is refused before any work.
@Suite(.timeLimit(scaledMinutes: 1))
struct AdmissionControllerTests {
    static func controller(
        active: Int = 2, queue: Int = 1, timeout: Duration = .seconds(600), memory: Int = 100
    ) -> AdmissionController {
        AdmissionController(
            limits: .init(activeLimit: active, queueLimit: queue, queueTimeout: timeout, memoryBudget: memory))
    }

    @Test func arrivalsBeyondThePlacesWaitAndBeyondTheQueueAreRefusedAtOnce() async throws {
        // Given two places, both held, and a queue of one
        let admission = Self.controller(active: 2, queue: 1)
        let held = [Hold(), Hold()]
        let holders = held.map { hold in Task { try await admission.admitted { await hold.wait() } } }
        #expect(await eventually { admission.snapshot.active == 2 })
        // When a third arrives, then a fourth
        let order = Locked<[String]>([])
        let third = Task { try await admission.admitted { order.withLock { $0.append("third") } } }
        #expect(await eventually { admission.snapshot.queued == 1 })
        // Then the fourth is refused while the places are still held: before any work, not after it
        await #expect(throws: AdmissionError(reason: .queueFull)) {
            try await admission.admitted { order.withLock { $0.append("fourth") } }
        }
        #expect(order.withLock { $0 }.isEmpty)
        #expect(admission.snapshot.rejections[.queueFull] == 1)
        // And the third runs as soon as a place is given back
        held[0].release()
        try await third.value
        #expect(order.withLock { $0 } == ["third"])
        held[1].release()
        for holder in holders { try await holder.value }
        #expect(admission.snapshot == AdmissionController.Snapshot(rejections: [.queueFull: 1]))
    }

    @Test func aWaitLongerThanTheQueueTimeoutIsRefusedWithQueueTimeout() async throws {
        // Given one place, held, and a queue timeout of 50 ms
        let admission = Self.controller(active: 1, queue: 4, timeout: .milliseconds(50))
        let hold = Hold()
        let holder = Task { try await admission.admitted { await hold.wait() } }
        #expect(await eventually { admission.snapshot.active == 1 })
        // When another arrives and the place stays held
        // Then it is refused once its wait outlasts the timeout, and it left the queue
        await #expect(throws: AdmissionError(reason: .queueTimeout)) { try await admission.admitted {} }
        #expect(admission.snapshot.queued == 0)
        #expect(admission.snapshot.rejections[.queueTimeout] == 1)
        hold.release()
        try await holder.value
    }

    @Test func memoryIsGrantedInArrivalOrderEvenWhenALaterClaimWouldFit() async throws {
        // Given a budget of 100 bytes with 60 reserved
        let admission = Self.controller(memory: 100)
        let hold = Hold()
        let holder = Task { try await admission.withMemory(60) { await hold.wait() } }
        #expect(await eventually { admission.snapshot.memoryReserved == 60 })
        // When a claim of 50 (does not fit) comes before one of 10 (would fit)
        let order = Locked<[Int]>([])
        let large = Task { try await admission.withMemory(50) { order.withLock { $0.append(50) } } }
        #expect(await eventually { admission.snapshot.memoryWaiting == 1 })
        let small = Task { try await admission.withMemory(10) { order.withLock { $0.append(10) } } }
        #expect(await eventually { admission.snapshot.memoryWaiting == 2 })
        // Then neither runs until the 60 are given back, and the first claim runs first
        #expect(order.withLock { $0 }.isEmpty)
        hold.release()
        try await holder.value
        try await large.value
        try await small.value
        #expect(order.withLock { $0 } == [50, 10])
        #expect(admission.snapshot.memoryReserved == 0)
    }

    @Test func workThatAloneExceedsTheBudgetIsRefusedAtOnce() async throws {
        let admission = Self.controller(memory: 100)
        await #expect(throws: AdmissionError(reason: .overBudget, bytes: 101)) {
            try await admission.withMemory(101) {}
        }
        #expect(admission.snapshot.rejections[.overBudget] == 1)
        // And work of exactly the budget runs
        #expect(try await admission.withMemory(100) { 7 } == 7)
    }

    @Test func aCancelledWaiterLeavesTheQueueAndTheNextArrivalTakesTheFreedPlace() async throws {
        // Given one place, held, and one arrival waiting
        let admission = Self.controller(active: 1, queue: 1)
        let hold = Hold()
        let holder = Task { try await admission.admitted { await hold.wait() } }
        #expect(await eventually { admission.snapshot.active == 1 })
        let waiter = Task { try await admission.admitted {} }
        #expect(await eventually { admission.snapshot.queued == 1 })
        // When the waiter is cancelled
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        // Then the queue has room again, and a freed place goes to the next arrival
        #expect(admission.snapshot.queued == 0)
        let next = Task { try await admission.admitted { 1 } }
        #expect(await eventually { admission.snapshot.queued == 1 })
        hold.release()
        try await holder.value
        #expect(try await next.value == 1)
        #expect(admission.snapshot.active == 0)
    }

    @Test func placesAndMemoryAreGivenBackWhenTheWorkThrows() async throws {
        struct Failure: Error {}
        let admission = Self.controller(active: 1, memory: 100)
        await #expect(throws: Failure.self) {
            try await admission.admitted { try await admission.withMemory(80) { throw Failure() } }
        }
        #expect(admission.snapshot == AdmissionController.Snapshot())
    }
}

/// Work that holds what it was admitted with until released.
final class Hold: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    func wait() async {
        for await _ in stream { return }
    }

    func release() { continuation.finish() }
}
