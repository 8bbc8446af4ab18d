import Synchronization

/// The locations of the keys a ``FileDatastore`` wrote lately, or looked for and found no file
/// for (a cold miss, whose answer is written next), so that a key saved or renewed again, or
/// saved after its miss, costs one table lookup instead of encoding it, hashing its bytes with
/// SHA-256 and spelling out its path (a revalidated entry is renewed on disk every time it expires).
///
/// Bounded: holding ``capacity`` keys, the next new one starts the table over (a location is a
/// pure function of its key, cheap to make again; keeping an order to choose which to drop
/// would cost every lookup).
final class FileLocationCache<Key: Hashable & Sendable, Location: Sendable>: Sendable {
    private let locations = Mutex<[Key: Location]>([:])
    /// The most keys held at once.
    let capacity: Int

    /// Holds at most `capacity` keys (at least one).
    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The number of keys held.
    var count: Int { locations.withLock { $0.count } }

    /// The location held for `key`, if any.
    func location(of key: Key) -> Location? { locations.withLock { $0[key] } }

    /// Holds `location` for `key`, starting the table over first when it is full.
    func hold(_ location: Location, for key: Key) {
        locations.withLock { locations in
            if locations.count >= capacity, locations[key] == nil { locations.removeAll(keepingCapacity: true) }
            locations[key] = location
        }
    }
}
