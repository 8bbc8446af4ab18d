/// The bytes a connection received and has not parsed yet, read from an offset: consuming a
/// request is O(1) and the parsed prefix is dropped only once it outweighs the rest (so a long
/// pipelined burst costs linear, not quadratic, time).
///
/// A parse loop works on a copy (`snapshot`): whatever the handler or the close path does to the
/// buffer meanwhile, the loop never touches memory it does not own. `discard()` starts a new
/// generation, and `consume(_:of:)` of an older snapshot is then ignored.
struct HTTPInboundBuffer {
    /// A copy of the unparsed bytes at one moment, and the buffer generation it came from.
    struct Snapshot {
        fileprivate let storage: [UInt8]
        fileprivate let start: Int
        fileprivate let generation: Int

        /// Calls `body` with the unparsed bytes.
        func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            storage.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        }
    }

    private var storage: [UInt8] = []
    private var start = 0
    private var generation = 0

    /// Unparsed bytes held.
    var count: Int { storage.count - start }

    /// `true` when nothing is waiting to be parsed.
    var isEmpty: Bool { start == storage.count }

    /// Keeps `bytes` behind what is already waiting.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        storage.append(contentsOf: bytes)
    }

    /// The unparsed bytes as they are now.
    func snapshot() -> Snapshot { Snapshot(storage: storage, start: start, generation: generation) }

    /// Drops the first `parsed` bytes of `snapshot` when the buffer still holds them (it was not
    /// discarded since); never more than is there.
    mutating func consume(_ parsed: Int, of snapshot: Snapshot) {
        guard snapshot.generation == generation, snapshot.start == start else { return }
        start = min(start + max(parsed, 0), storage.count)
        if start == storage.count {
            discardStorage()
        } else if start >= 4_096, start >= storage.count - start {
            storage.removeFirst(start)
            start = 0
        }
    }

    /// Forgets everything waiting (closing, or lingering after a final answer).
    mutating func discard() {
        generation &+= 1
        discardStorage()
    }

    private mutating func discardStorage() {
        storage = []
        start = 0
    }
}
