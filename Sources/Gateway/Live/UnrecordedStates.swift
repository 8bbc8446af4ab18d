import RDS

/// Where the ``EventHub``'s replay buffer has holes: the resources whose states were not
/// published because nobody followed them (a hit-for-pass read, see ``EventHub/follows(_:)``),
/// each with the event number its skipped states took. A subscriber resuming from before such a
/// number, for a resource or repository it follows, gets a `refetch` instead of a silent gap.
///
/// Bounded: beyond ``capacity`` resources, they are forgotten and every resume from before the
/// newest skipped state counts as a gap (a needless refetch, never a missed state).
struct UnrecordedStates {
    /// The most resources remembered one by one.
    let capacity: Int
    private var byKey: [ResourceKey: UInt64] = [:]
    private var byRepository: [String: UInt64] = [:]
    /// Every resume from before this number is a gap (the resources forgotten when full).
    private var floor: UInt64 = 0

    /// Remembers at most `capacity` resources one by one.
    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Notes that states of `key` went unrecorded as event number `sequence`.
    mutating func note(_ key: ResourceKey, at sequence: UInt64) {
        // The count first: a lookup costs a hash, and the table is seldom full.
        if byKey.count >= capacity, byKey[key] == nil {
            floor = sequence
            byKey.removeAll(keepingCapacity: true)
        }
        byKey[key] = sequence
        byRepository[key.repository] = sequence
    }

    /// Whether a subscriber of `keys` and `repositories` that saw every event up to `seen` missed
    /// an unrecorded state.
    func missed(after seen: UInt64, keys: Set<ResourceKey>, repositories: Set<String>) -> Bool {
        floor > seen || keys.contains { (byKey[$0] ?? 0) > seen }
            || repositories.contains { (byRepository[$0] ?? 0) > seen }
    }
}
