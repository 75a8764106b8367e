import Pinhole
import PinholeShared
import PinholeTestSupport
import Testing

@testable import pinhole

/// The queue between the reader of an input list and the workers: never more than its capacity, first in
/// first out, and nobody left waiting at the end or on cancellation.
@Suite(.timeLimit(scaledMinutes: 1))
struct BoundedQueueTests {
    @Test func aProducerWaitsWhileTheQueueIsFull() async throws {
        // Given a queue of 3 and a producer of 10 elements with no consumer yet
        let queue = BoundedQueue<Int>(capacity: 3)
        let sent = Locked(0)
        let producer = Task {
            for value in 0..<10 {
                guard await queue.send(value) else { return }
                sent.withLock { $0 += 1 }
            }
            queue.finish()
        }
        defer { producer.cancel() }

        // When the producer has filled the queue (bounded wait)
        try await waitUntil { sent.withLock { $0 } == 3 }
        try await Task.sleep(for: .milliseconds(50))

        // Then it stopped at the capacity
        #expect(sent.withLock { $0 } == 3)
        #expect(queue.count == 3)

        // And a consumer receives all 10, in order, then nil; the queue never held more than 3
        var received: [Int] = []
        while let value = await queue.next() {
            #expect(queue.count <= 3)
            received.append(value)
        }
        #expect(received == Array(0..<10))
    }

    @Test func consumersWaitForElementsAndAllEndWhenFinished() async throws {
        // Given three consumers waiting on an empty queue
        let queue = BoundedQueue<Int>(capacity: 2)
        let consumers = (0..<3).map { _ in
            Task { () -> [Int] in
                var values: [Int] = []
                while let value = await queue.next() { values.append(value) }
                return values
            }
        }
        defer { for consumer in consumers { consumer.cancel() } }

        // When 20 elements are sent and the queue is finished
        for value in 0..<20 { #expect(await queue.send(value)) }
        queue.finish()

        // Then every element went to exactly one consumer, and every consumer ended
        var all: [Int] = []
        for consumer in consumers { all += await consumer.value }
        #expect(all.sorted() == Array(0..<20))
        // And sending after the end is refused
        #expect(await queue.send(99) == false)
    }

    @Test func cancellingAWaitingConsumerOrProducerReleasesIt() async throws {
        // Given a consumer waiting on an empty queue
        let queue = BoundedQueue<Int>(capacity: 1)
        let consumer = Task { await queue.next() }
        try await Task.sleep(for: .milliseconds(20))
        // When it is cancelled, it returns nil
        consumer.cancel()
        #expect(await consumer.value == nil)

        // Given a producer waiting on a full queue
        #expect(await queue.send(1))
        let producer = Task { await queue.send(2) }
        try await Task.sleep(for: .milliseconds(20))
        // When it is cancelled, its element is refused, and the queue still holds only the first
        producer.cancel()
        #expect(await producer.value == false)
        #expect(queue.count == 1)
        queue.finish()
        #expect(await queue.next() == 1)
        #expect(await queue.next() == nil)
    }

    /// Polls `condition` every 5 ms for at most 10 s × the load factor; fails the test (never hangs) when it stays
    /// false.
    private func waitUntil(_ condition: @Sendable () -> Bool) async throws {
        let limit = LoadFactor.scaled(.seconds(10))
        let deadline = ContinuousClock.now + limit
        while !condition() {
            try #require(ContinuousClock.now < deadline, "condition not met within \(limit)")
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
