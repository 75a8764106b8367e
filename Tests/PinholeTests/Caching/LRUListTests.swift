import PinholeTestSupport
import Testing

@testable import Pinhole

@Suite(.timeLimit(scaledMinutes: 1))
struct LRUListTests {
    @Test func pushMoveAndRemoveKeepTheRecencyOrder() {
        // Given a, b, c pushed in that order
        var list = LRUList<String>()
        let a = list.pushFront("a")
        let b = list.pushFront("b")
        let c = list.pushFront("c")
        #expect(list.handlesFromFront.map { list[$0] } == ["c", "b", "a"])

        // When a moves to the front and b is removed
        list.moveToFront(a)
        #expect(list.remove(b) == "b")

        // Then the order is a, c; the first and last handles follow
        #expect(list.handlesFromFront.map { list[$0] } == ["a", "c"])
        #expect(list.first == a)
        #expect(list.last == c)
        #expect(list.count == 2)
    }

    @Test func freedSlotsAreReused() {
        var list = LRUList<Int>()
        let handles = (0..<4).map { list.pushFront($0) }
        list.remove(handles[1])
        list.remove(handles[2])
        let reused = [list.pushFront(10), list.pushFront(11)]
        #expect(Set(reused) == [handles[1], handles[2]])
        #expect(list.handlesFromFront.map { list[$0] } == [11, 10, 3, 0])
    }

    @Test(arguments: [1, 2, 3])
    func randomOperationsMatchAnArrayModel(seed: UInt64) {
        // Given a list and a plain array holding the same order (front first)
        var generator = SplitMix64(seed: seed)
        var list = LRUList<Int>()
        var model: [Int] = []
        var handles: [Int: LRUList<Int>.Handle] = [:]

        for value in 0..<5000 {
            // When pushes, moves and removals are applied to both
            switch generator.next() % 4 {
            case 0, 1:
                handles[value] = list.pushFront(value)
                model.insert(value, at: 0)
            case 2:
                guard let element = model.randomElement(using: &generator), let handle = handles[element] else {
                    continue
                }
                list.moveToFront(handle)
                model.removeAll { $0 == element }
                model.insert(element, at: 0)
            default:
                guard let element = model.randomElement(using: &generator), let handle = handles[element] else {
                    continue
                }
                #expect(list.remove(handle) == element)
                handles[element] = nil
                model.removeAll { $0 == element }
            }
        }

        // Then they agree, from both ends
        #expect(list.handlesFromFront.map { list[$0] } == model)
        #expect(list.count == model.count)
        #expect(list.last.map { list[$0] } == model.last)
    }
}

/// A small seeded generator, so that random sequences repeat.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
