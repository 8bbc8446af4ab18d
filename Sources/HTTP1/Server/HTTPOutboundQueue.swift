import Glibc
import Sockets

/// The bytes a connection still has to write, as a queue of segments that reference the arrays
/// they were given: a cached body is queued as the cache's own storage (arrays are
/// reference-counted and copy-on-write), never copied into a per-response buffer.
///
/// `send(to:)` hands up to ``maxSegmentsPerWrite`` segments to one `writev`, so a head and a
/// small body still leave in one system call (and with `TCP_NODELAY`, in one packet).
struct HTTPOutboundQueue {
    /// How many segments one `writev` takes at most.
    static let maxSegmentsPerWrite = 16

    /// Queued segments; those before `first` are already written.
    private(set) var segments: [[UInt8]] = []
    private var first = 0
    /// How much of `segments[first]` is already written.
    private var offset = 0
    /// Bytes queued and not yet written.
    private(set) var count = 0
    /// `false` while the last segment was queued unjoined: bytes appended later (the next
    /// pipelined answer's head) are not joined to it, which would copy a shared body.
    private var lastTakesJoins = true

    /// `true` when nothing waits to be written.
    var isEmpty: Bool { count == 0 }

    /// Segments this small are joined to a small segment before them (copying a few bytes is
    /// cheaper than another `iovec`, and a batch of pipelined answers still fits one `writev`).
    static let joinedSegmentBytes = 2_048

    /// Queues `bytes` (kept by reference, not copied, unless both it and the segment before it
    /// are small); an empty array is ignored.
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        count += bytes.count
        if segments.count > first, lastTakesJoins, segments[segments.count - 1].count + bytes.count <= Self.joinedSegmentBytes {
            segments[segments.count - 1].append(contentsOf: bytes)
        } else {
            segments.append(bytes)
            lastTakesJoins = true
        }
    }

    /// The largest body a response head carries in its own memory (`HTTPConnection.respond(with:)`);
    /// a larger one is queued as the array it is, with ``append(unjoined:)``. Small enough that a
    /// head with it usually stays a block glibc's per-thread cache hands out (up to 1,032 bytes):
    /// a head with a 1 KB body copied in was a block taken and returned on the allocator's slow
    /// path, about 1,000 instructions more per answer than a second `iovec`.
    static let copiedBodyBytes = 512

    /// Queues `bytes` as a segment of its own, never joined to the one before it (as ``append(_:)``
    /// may): a body shared with a cache, written from where it lies; an empty array is ignored.
    mutating func append(unjoined bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        count += bytes.count
        segments.append(bytes)
        lastTakesJoins = false
    }

    /// Drops everything queued.
    mutating func removeAll() {
        segments = []
        first = 0
        offset = 0
        count = 0
    }

    /// Writes as much as `socket` takes now with one `writev` of the first segments; what was
    /// written is dropped from the queue.
    mutating func send(to socket: Socket) -> Socket.SendResult {
        let result = Self.send(
            segments[first..<min(segments.count, first + Self.maxSegmentsPerWrite)], skipping: offset, to: socket)
        if case .sent(let written) = result { consume(written) }
        return result
    }

    /// One `writev` of `pending`. The slice (which shares the segments' storage) ends with the
    /// call, so that dropping the written segments afterwards copies no array.
    private static func send(_ pending: ArraySlice<[UInt8]>, skipping: Int, to socket: Socket) -> Socket.SendResult {
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: pending.count) { vectors in
            withVectors(pending, skipping: skipping, filling: vectors, from: 0) { socket.send(vectors: $0) }
        }
    }

    private mutating func consume(_ written: Int) {
        count -= written
        // All of it written (the usual case): the segments go at once, not one by one.
        guard count > 0 else {
            segments.removeAll(keepingCapacity: true)
            first = 0
            offset = 0
            return
        }
        var remaining = written
        while remaining > 0 {
            let left = segments[first].count - offset
            if remaining < left {
                offset += remaining
                return
            }
            remaining -= left
            segments[first] = []
            first += 1
            offset = 0
        }
        // Bytes are left, so segments are: the written ones before them are dropped now and then.
        if first >= 64 {
            segments.removeFirst(first)
            first = 0
        }
    }

    /// Calls `body` with one `iovec` per segment in `vectors`, each pointing into the segment's
    /// own storage (the first one `skipping` bytes in), pinned for the duration of the call.
    private static func withVectors<R>(
        _ pending: ArraySlice<[UInt8]>, skipping: Int, filling vectors: UnsafeMutableBufferPointer<iovec>,
        from index: Int, _ body: (UnsafeBufferPointer<iovec>) -> R
    ) -> R {
        guard let segment = pending.first else {
            return body(UnsafeBufferPointer(rebasing: vectors[..<index]))
        }
        return segment.withUnsafeBytes { bytes in
            let start = UnsafeMutableRawPointer(mutating: bytes.baseAddress!) + skipping
            vectors.initializeElement(at: index, to: iovec(iov_base: start, iov_len: bytes.count - skipping))
            return withVectors(pending.dropFirst(), skipping: 0, filling: vectors, from: index + 1, body)
        }
    }
}
