import Foundation

/// A binary min-heap of timers ordered by deadline: the pure core of ``RefreshScheduler``.
///
/// Cancelling is lazy: a cancelled timer stays in the heap until it reaches the top, where
/// ``popDue(at:)`` skips it; the heap is rebuilt when cancelled timers outnumber live ones, so
/// it stays within twice the number of live timers.
public struct TimerHeap: Sendable {
    /// One timer: when it is due and the identifier it was scheduled under.
    public struct Timer: Sendable, Equatable {
        /// When the timer is due.
        public let deadline: Date
        /// The identifier returned by ``TimerHeap/insert(_:)``.
        public let id: UInt64
    }

    private var heap: [Timer] = []
    private var live: Set<UInt64> = []
    private var nextID: UInt64 = 0

    /// Creates an empty heap.
    public init() {}

    /// The number of timers not yet due nor cancelled.
    public var count: Int { live.count }

    /// The earliest deadline of a live timer, if any.
    public mutating func earliestDeadline() -> Date? {
        dropCancelledTop()
        return heap.first?.deadline
    }

    /// Adds a timer due at `deadline` and returns its identifier.
    public mutating func insert(_ deadline: Date) -> UInt64 {
        nextID += 1
        live.insert(nextID)
        heap.append(Timer(deadline: deadline, id: nextID))
        siftUp(heap.count - 1)
        return nextID
    }

    /// Cancels the timer `id`; does nothing when it is already due or cancelled.
    public mutating func cancel(_ id: UInt64) {
        guard live.remove(id) != nil else { return }
        if heap.count > 64 && heap.count > live.count * 2 { rebuild() }
    }

    /// Removes and returns, earliest first, every live timer due at `now`.
    public mutating func popDue(at now: Date) -> [UInt64] {
        var due: [UInt64] = []
        while let top = heap.first, top.deadline <= now {
            removeTop()
            if live.remove(top.id) != nil { due.append(top.id) }
        }
        return due
    }

    private mutating func dropCancelledTop() {
        while let top = heap.first, !live.contains(top.id) { removeTop() }
    }

    private mutating func rebuild() {
        heap.removeAll { !live.contains($0.id) }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private static func precedes(_ lhs: Timer, _ rhs: Timer) -> Bool {
        (lhs.deadline, lhs.id) < (rhs.deadline, rhs.id)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = parent * 2 + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count, Self.precedes(heap[left + 1], heap[left]) { smallest = left + 1 }
            guard Self.precedes(heap[smallest], heap[parent]) else { return }
            heap.swapAt(smallest, parent)
            parent = smallest
        }
    }
}
