/// The one-shot timers of an ``EventLoop``: a binary min-heap ordered by due time, with the
/// order of scheduling breaking ties. Used on the loop's thread only.
///
/// There is no cancelling: a timer's work checks whether it still applies when it runs, and a
/// user that may re-arm (a client connection's deadlines) schedules a new timer only when the
/// new due time is earlier than the one already pending, so the heap holds about one timer per user.
struct EventLoopTimers {
    private struct Timer {
        let due: LoopInstant
        let order: UInt64
        let work: () -> Void

        func precedes(_ other: Timer) -> Bool { due < other.due || (due == other.due && order < other.order) }
    }

    private var heap: [Timer] = []
    private var nextOrder: UInt64 = 0

    /// The timers not run yet.
    var count: Int { heap.count }

    /// When the earliest timer is due, if any.
    var earliest: LoopInstant? { heap.first?.due }

    /// Adds `work`, to run once `due` has passed.
    mutating func schedule(at due: LoopInstant, _ work: @escaping () -> Void) {
        nextOrder += 1
        heap.append(Timer(due: due, order: nextOrder, work: work))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the work of every timer due at `now`, earliest first.
    mutating func takeDue(at now: LoopInstant) -> [() -> Void] {
        var due: [() -> Void] = []
        while let first = heap.first, first.due <= now {
            due.append(first.work)
            heap.swapAt(0, heap.count - 1)
            heap.removeLast()
            siftDown(from: 0)
        }
        return due
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let child = right < heap.count && heap[right].precedes(heap[left]) ? right : left
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            parent = child
        }
    }
}
