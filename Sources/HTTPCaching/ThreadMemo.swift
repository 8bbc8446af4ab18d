import Glibc

/// The last key read and the value made from it, kept for each thread on its own (a
/// `pthread_key_t` slot holding that thread's box): reading it takes no lock, and neither the
/// box nor the value it holds is shared with another thread, so no cache line or reference
/// count moves between cores. Meant for a `static let`: its key is never given back, and each
/// thread's box is released when the thread ends.
final class ThreadMemo<Key: Equatable, Value>: Sendable {
    /// One thread's last key and value.
    private final class Box {
        var key: Key
        var value: Value

        init(key: Key, value: Value) {
            self.key = key
            self.value = value
        }
    }

    private let slot: pthread_key_t

    init() {
        var slot = pthread_key_t()
        pthread_key_create(&slot) { box in box.map { Unmanaged<AnyObject>.fromOpaque($0).release() } }
        self.slot = slot
    }

    /// This thread's value for `key`: the one kept when this thread last asked for the same key,
    /// else `make(key)`, which is then kept in place of the last.
    func value(for key: Key, make: (Key) -> Value) -> Value {
        guard let kept = pthread_getspecific(slot) else {
            let value = make(key)
            pthread_setspecific(slot, Unmanaged.passRetained(Box(key: key, value: value)).toOpaque())
            return value
        }
        let box = Unmanaged<Box>.fromOpaque(kept).takeUnretainedValue()
        if box.key == key { return box.value }
        let value = make(key)
        box.key = key
        box.value = value
        return value
    }
}
