/// A key-value table that remembers the order of use, for least-recently-used eviction.
///
/// Entries live in one contiguous array of slots linked into a doubly linked list by index
/// (newest ↔ oldest), with a dictionary from key to slot. Every operation is O(1) and no
/// operation allocates per entry beyond what the dictionary and the slot array grow by; freed
/// slots are reused through a free list. Not thread-safe: ``MemoryDatastore`` guards it with a lock.
struct LRUTable<Key: Hashable, Value> {
    private struct Slot {
        var key: Key?
        var value: Value?
        var cost: Int
        /// The next newer slot, or `none`; in a free slot, the next free slot.
        var newer: Int32
        /// The next older slot, or `none`.
        var older: Int32
    }

    private static var none: Int32 { -1 }

    private var slotByKey: [Key: Int32] = [:]
    private var slots: [Slot] = []
    private var newest = LRUTable.none
    private var oldest = LRUTable.none
    private var firstFree = LRUTable.none

    /// The sum of the costs of the entries held.
    private(set) var totalCost = 0

    /// The number of entries held.
    var count: Int { slotByKey.count }

    /// Returns the value for `key` and, when `markUsed` is set, makes it the newest entry.
    mutating func value(for key: Key, markUsed: Bool) -> Value? {
        guard let slot = slotByKey[key] else { return nil }
        if markUsed { moveToNewest(slot) }
        return slots[Int(slot)].value
    }

    /// Stores `value` under `key` as the newest entry, replacing any previous value.
    mutating func setValue(_ value: Value, cost: Int, for key: Key) {
        if let slot = slotByKey[key] {
            totalCost += cost - slots[Int(slot)].cost
            slots[Int(slot)].value = value
            slots[Int(slot)].cost = cost
            moveToNewest(slot)
            return
        }
        let slot = allocateSlot(Slot(key: key, value: value, cost: cost, newer: Self.none, older: Self.none))
        slotByKey[key] = slot
        totalCost += cost
        linkAsNewest(slot)
    }

    /// Removes the entry for `key`; returns `true` when there was one.
    @discardableResult
    mutating func removeValue(for key: Key) -> Bool {
        guard let slot = slotByKey.removeValue(forKey: key) else { return false }
        release(slot)
        return true
    }

    /// Removes the least recently used entry; returns `false` when the table is empty.
    @discardableResult
    mutating func removeOldest() -> Bool {
        guard oldest != Self.none, let key = slots[Int(oldest)].key else { return false }
        return removeValue(for: key)
    }

    /// Removes every entry and gives the memory back.
    mutating func removeAll() {
        self = LRUTable()
    }

    /// The keys from the most to the least recently used.
    var keysNewestFirst: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        var slot = newest
        while slot != Self.none {
            if let key = slots[Int(slot)].key { keys.append(key) }
            slot = slots[Int(slot)].older
        }
        return keys
    }

    private mutating func allocateSlot(_ filled: Slot) -> Int32 {
        guard firstFree != Self.none else {
            slots.append(filled)
            return Int32(slots.count - 1)
        }
        let slot = firstFree
        firstFree = slots[Int(slot)].newer
        slots[Int(slot)] = filled
        return slot
    }

    private mutating func release(_ slot: Int32) {
        unlink(slot)
        totalCost -= slots[Int(slot)].cost
        slots[Int(slot)] = Slot(key: nil, value: nil, cost: 0, newer: firstFree, older: Self.none)
        firstFree = slot
    }

    private mutating func moveToNewest(_ slot: Int32) {
        guard slot != newest else { return }
        unlink(slot)
        linkAsNewest(slot)
    }

    private mutating func linkAsNewest(_ slot: Int32) {
        slots[Int(slot)].older = newest
        slots[Int(slot)].newer = Self.none
        if newest != Self.none { slots[Int(newest)].newer = slot }
        newest = slot
        if oldest == Self.none { oldest = slot }
    }

    private mutating func unlink(_ slot: Int32) {
        let newer = slots[Int(slot)].newer
        let older = slots[Int(slot)].older
        if newer != Self.none { slots[Int(newer)].older = older } else { newest = older }
        if older != Self.none { slots[Int(older)].newer = newer } else { oldest = newer }
        slots[Int(slot)].newer = Self.none
        slots[Int(slot)].older = Self.none
    }
}
