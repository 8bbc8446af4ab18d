/// The callers waiting for one fetch of an ``InFlightTable``, each under its id. The first is kept
/// in place and a table is made only when a second one joins: most fetches have one waiter, and a
/// table costs an allocation when its first waiter is added, a list when they are handed out, and
/// their release.
struct FlightWaiters<Waiter> {
    private var first: (id: UInt64, waiter: Waiter)?
    private var others: [UInt64: Waiter] = [:]

    /// The number of waiters.
    var count: Int { (first == nil ? 0 : 1) + others.count }

    /// `true` when nobody waits.
    var isEmpty: Bool { first == nil && others.isEmpty }

    /// Adds `waiter` under `id` (not among the waiters yet).
    mutating func add(_ waiter: Waiter, id: UInt64) {
        if first == nil {
            first = (id, waiter)
        } else {
            others[id] = waiter
        }
    }

    /// Removes and returns the waiter of `id`, if it is among them.
    mutating func remove(id: UInt64) -> Waiter? {
        if let first, first.id == id {
            self.first = nil
            return first.waiter
        }
        return others.removeValue(forKey: id)
    }

    /// Calls `body` with each waiter.
    func forEach(_ body: (Waiter) -> Void) {
        if let first { body(first.waiter) }
        for waiter in others.values { body(waiter) }
    }
}

extension FlightWaiters: Sendable where Waiter: Sendable {}
