import Foundation
import Synchronization

/// The locations of the keys a ``FileDatastore`` wrote lately, or looked for and found no file
/// for (a cold miss, whose answer is written next), so that a key saved or renewed again, or
/// saved after its miss, costs one table lookup instead of encoding it, hashing its bytes with
/// SHA-256 and spelling out its path (a revalidated entry is renewed on disk as it expires, at most
/// once per ``FileDatastore/revalidationWriteInterval``).
/// Each holds when its key's file was last written (``FileDatastore/renewRevalidatedInPlace(_:for:renewing:)``
/// skips a write soon after).
///
/// Bounded: holding ``capacity`` keys, the next new one starts the table over (a location is a
/// pure function of its key, cheap to make again; keeping an order to choose which to drop
/// would cost every lookup).
final class FileLocationCache<Key: Hashable & Sendable, Location: Sendable>: Sendable {
    /// A location, and when its file was last written (`nil`: not since it was held).
    private struct Held {
        let location: Location
        var writtenAt: Date?
    }

    private let locations = Mutex<[Key: Held]>([:])
    /// The most keys held at once.
    let capacity: Int

    /// Holds at most `capacity` keys (at least one).
    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The number of keys held.
    var count: Int { locations.withLock { $0.count } }

    /// The location held for `key`, if any.
    func location(of key: Key) -> Location? { locations.withLock { $0[key]?.location } }

    /// The location held for `key`, if any, noting that its file is written at `date` (replaced
    /// whole with `updateValue`: a change through the subscript would allocate its accessor's frame).
    func locationNotingWrite(of key: Key, at date: Date) -> Location? {
        locations.withLock { locations in
            guard let held = locations[key] else { return nil }
            locations.updateValue(Held(location: held.location, writtenAt: date), forKey: key)
            return held.location
        }
    }

    /// When the file of `key` was last written, if its location is held and it was written since.
    func writtenAt(of key: Key) -> Date? { locations.withLock { $0[key]?.writtenAt } }

    /// Holds `location` for `key`, its file written at `writtenAt` (`nil`: a missing file),
    /// starting the table over first when it is full.
    func hold(_ location: Location, for key: Key, writtenAt: Date? = nil) {
        locations.withLock { locations in
            if locations.count >= capacity, locations[key] == nil { locations.removeAll(keepingCapacity: true) }
            locations.updateValue(Held(location: location, writtenAt: writtenAt), forKey: key)
        }
    }
}
