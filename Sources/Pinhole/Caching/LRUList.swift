/// A doubly linked list kept in one array and addressed by stable integer handles: the recency order of the
/// caches.
///
/// The front is the most recently used element, the back the least recently used one. Every operation is
/// O(1) and, once the array has grown to the working-set size, none allocates: freed slots are threaded on a
/// free list and reused. A handle stays valid until its element is removed.
///
/// Not thread-safe: the owning cache keeps it behind its lock.
@usableFromInline
struct LRUList<Element> {
    /// A position in the list; valid from ``pushFront(_:)`` until ``remove(_:)``.
    @usableFromInline
    typealias Handle = Int

    @usableFromInline
    struct Slot {
        @usableFromInline var element: Element?
        @usableFromInline var previous: Handle
        @usableFromInline var next: Handle

        @inlinable
        init(element: Element?, previous: Handle, next: Handle) {
            self.element = element
            self.previous = previous
            self.next = next
        }
    }

    @inlinable
    static var none: Handle { -1 }

    @usableFromInline
    var slots: [Slot] = []
    /// The first free slot; free slots are chained through `next`.
    @usableFromInline
    var freeHead: Handle = -1
    /// The most recently used element.
    @usableFromInline
    private(set) var first: Handle?
    /// The least recently used element.
    @usableFromInline
    private(set) var last: Handle?
    /// The number of elements in the list.
    @usableFromInline
    private(set) var count = 0

    @inlinable
    init() {}

    /// The element at `handle`.
    @inlinable
    subscript(handle: Handle) -> Element {
        get {
            guard let element = slots[handle].element else {
                preconditionFailure("Internal inconsistency: LRUList handle \(handle) is not in use")
            }
            return element
        }
        set {
            precondition(slots[handle].element != nil, "Internal inconsistency: LRUList handle is not in use")
            slots[handle].element = newValue
        }
    }

    /// Inserts `element` at the front (most recently used) and returns its handle.
    @inlinable
    mutating func pushFront(_ element: Element) -> Handle {
        let handle: Handle
        if freeHead != Self.none {
            handle = freeHead
            freeHead = slots[handle].next
            slots[handle] = Slot(element: element, previous: Self.none, next: Self.none)
        } else {
            handle = slots.count
            slots.append(Slot(element: element, previous: Self.none, next: Self.none))
        }
        link(handle)
        count += 1
        return handle
    }

    /// Moves the element at `handle` to the front (most recently used).
    @inlinable
    mutating func moveToFront(_ handle: Handle) {
        guard first != handle else { return }
        unlink(handle)
        link(handle)
    }

    /// Removes the element at `handle` and returns it; the handle becomes invalid.
    @inlinable @discardableResult
    mutating func remove(_ handle: Handle) -> Element {
        let element = self[handle]
        unlink(handle)
        slots[handle] = Slot(element: nil, previous: Self.none, next: freeHead)
        freeHead = handle
        count -= 1
        return element
    }

    /// Removes every element and releases the storage.
    @inlinable
    mutating func removeAll() {
        self = LRUList()
    }

    /// The handles from the front (most recent) to the back (least recent); for tests and diagnostics.
    var handlesFromFront: [Handle] {
        var result: [Handle] = []
        result.reserveCapacity(count)
        var cursor = first
        while let handle = cursor {
            result.append(handle)
            let next = slots[handle].next
            cursor = next == Self.none ? nil : next
        }
        return result
    }

    @inlinable
    mutating func link(_ handle: Handle) {
        slots[handle].previous = Self.none
        if let oldFirst = first {
            slots[handle].next = oldFirst
            slots[oldFirst].previous = handle
        } else {
            slots[handle].next = Self.none
            last = handle
        }
        first = handle
    }

    @inlinable
    mutating func unlink(_ handle: Handle) {
        let previous = slots[handle].previous
        let next = slots[handle].next
        if previous != Self.none { slots[previous].next = next } else { first = next == Self.none ? nil : next }
        if next != Self.none { slots[next].previous = previous } else { last = previous == Self.none ? nil : previous }
        slots[handle].previous = Self.none
        slots[handle].next = Self.none
    }
}

extension LRUList: Sendable where Element: Sendable {}
extension LRUList.Slot: Sendable where Element: Sendable {}
