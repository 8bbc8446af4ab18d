/// A key-value table that remembers the order of use, for least-recently-used eviction.
///
/// A dictionary maps each key to a node of an ``LRUList`` (the recency order and the costs);
/// the key and value of node `n` sit at index `n` of a parallel array. Every operation is O(1),
/// and nodes freed by removals are reused. Not thread-safe: ``MemoryDatastore`` guards it.
@usableFromInline
struct LRUTable<Key: Hashable, Value> {
    @usableFromInline
    struct Slot {
        @usableFromInline var key: Key?
        @usableFromInline var value: Value?

        @inlinable init(key: Key?, value: Value?) {
            self.key = key
            self.value = value
        }
    }

    @usableFromInline var nodeByKey: [Key: Int32] = [:]
    @usableFromInline var slots: [Slot] = []
    @usableFromInline var order = LRUList()

    /// Creates an empty table.
    @inlinable init() {}

    /// The sum of the costs of the entries held.
    @inlinable var totalCost: Int { order.totalCost }

    /// The number of entries held.
    @inlinable var count: Int { nodeByKey.count }

    /// Returns the value for `key` and, when `markUsed` is set, makes it the newest entry.
    @inlinable mutating func value(for key: Key, markUsed: Bool) -> Value? {
        guard let node = nodeByKey[key] else { return nil }
        if markUsed { order.moveToNewest(node) }
        // The payload copied out of the slot, not the optional: the optional's copy went through
        // the runtime's generic witnesses (~290 instructions per hit).
        guard case .some(let value) = slots[Int(node)].value else { return nil }
        return value
    }

    /// Stores `value` under `key` as the newest entry, replacing any previous value.
    @inlinable mutating func setValue(_ value: Value, cost: Int, for key: Key) {
        if let node = nodeByKey[key] {
            order.update(node, cost: cost)
            slots[Int(node)].value = value
            return
        }
        let node = order.insertNewest(cost: cost)
        let slot = Slot(key: key, value: value)
        if Int(node) == slots.count { slots.append(slot) } else { slots[Int(node)] = slot }
        nodeByKey[key] = node
    }

    /// Removes the entry for `key`; returns `true` when there was one. An empty table answers
    /// without hashing `key` (a dictionary's removal hashes it even when empty).
    @discardableResult @inlinable mutating func removeValue(for key: Key) -> Bool {
        guard !nodeByKey.isEmpty, let node = nodeByKey.removeValue(forKey: key) else { return false }
        order.remove(node)
        slots[Int(node)] = Slot(key: nil, value: nil)
        return true
    }

    /// Removes the least recently used entry; returns `false` when the table is empty.
    @discardableResult @inlinable mutating func removeOldest() -> Bool {
        guard let node = order.oldest, let key = slots[Int(node)].key else { return false }
        return removeValue(for: key)
    }

    /// Removes every entry and gives the memory back.
    @inlinable mutating func removeAll() {
        self = LRUTable()
    }

    /// The keys from the most to the least recently used.
    @inlinable var keysNewestFirst: [Key] {
        order.newestFirst.compactMap { slots[Int($0)].key }
    }
}
