import Synchronization

/// The fetches of this replica waiting for another replica's announcement of a key (see
/// ``RedisFetchCoordinator``), woken by the stream reader.
final class AnnouncementWaiters: Sendable {
    /// A repository and an encoded key.
    struct Subject: Hashable, Sendable {
        var repository: String
        var key: [UInt8]
    }

    private let waiting = Mutex<[Subject: [ObjectIdentifier: AnnouncementSignal]]>([:])

    /// Registers a signal for `subject`, fired by the next announcement of it.
    func register(_ subject: Subject) -> AnnouncementSignal {
        let signal = AnnouncementSignal()
        waiting.withLock { $0[subject, default: [:]][ObjectIdentifier(signal)] = signal }
        return signal
    }

    /// Forgets `signal` (it was fired, or its wait ended otherwise).
    func remove(_ signal: AnnouncementSignal, for subject: Subject) {
        waiting.withLock { waiting in
            waiting[subject]?[ObjectIdentifier(signal)] = nil
            if waiting[subject]?.isEmpty == true { waiting[subject] = nil }
        }
    }

    /// Fires the signals of `subject`, or of every key of `repository` when `subject.key` is empty
    /// (a purge of all), or all of them when `repository` is `nil` (a flush).
    func fire(repository: String?, key: [UInt8]) {
        let signals = waiting.withLock { waiting in
            let subjects = waiting.keys.filter { subject in
                guard let repository else { return true }
                return subject.repository == repository && (key.isEmpty || subject.key == key)
            }
            return subjects.flatMap { waiting.removeValue(forKey: $0).map { Array($0.values) } ?? [] }
        }
        for signal in signals { signal.fire() }
    }

    /// The number of waiting fetches (for tests).
    var count: Int { waiting.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}
