import Foundation
import Synchronization

/// Keys whose last answer from the service could not be stored ("hit-for-pass", as Varnish calls
/// it): for ``window`` seconds after the answer that set the mark, a read of such a key goes to
/// the service without looking in the datastore first, so an uncacheable resource costs no cache
/// lookups. Those reads' answers do not renew the mark (as Varnish's hit-for-pass objects expire):
/// once it has expired, one read looks the key up and marks it again. A stored answer for the key
/// ends its mark at once.
///
/// Bounded by ``capacity``: when full, expired marks are dropped, and a new key is not marked
/// while none has expired (it is then only looked up as before).
final class PassMarks<Key: Hashable & Sendable>: Sendable {
    /// How long a mark lasts, in seconds.
    let window: TimeInterval
    /// The most keys marked at once.
    let capacity: Int
    private let marks = Mutex<[Key: Date]>([:])

    /// Marks that last `window` seconds, at most `capacity` of them.
    init(window: TimeInterval = 120, capacity: Int = 10_000) {
        self.window = window
        self.capacity = capacity
    }

    /// Whether `key` is marked at `now` (an expired mark is dropped).
    func isMarked(_ key: Key, at now: Date) -> Bool {
        marks.withLock { marks in
            guard let until = marks[key] else { return false }
            if until > now { return true }
            marks[key] = nil
            return false
        }
    }

    /// Marks `key` until `now` + ``window``.
    func mark(_ key: Key, at now: Date) {
        marks.withLock { marks in
            // The count first: a lookup costs a hash, and the table is seldom full.
            if marks.count >= capacity, marks[key] == nil {
                marks = marks.filter { $0.value > now }
                guard marks.count < capacity else { return }
            }
            marks[key] = now.addingTimeInterval(window)
        }
    }

    /// Ends the mark of `key`, if any.
    func clear(_ key: Key) {
        marks.withLock { marks in
            if !marks.isEmpty { marks[key] = nil }
        }
    }
}
