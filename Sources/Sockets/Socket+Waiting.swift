import Glibc

extension Socket {
    /// Blocks the calling thread until the socket is ready for `events` (`POLLIN`, `POLLOUT`) or
    /// `deadline` passes; returns `false` on the deadline. For clients that run blocking I/O on
    /// their own threads (the Redis client), never on an event loop.
    public func wait(for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let remaining = deadline - .now
            guard remaining > .zero else { return false }
            let milliseconds = Int32(clamping: max(1, remaining.components.seconds * 1_000
                + remaining.components.attoseconds / 1_000_000_000_000_000))
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let status = poll(&descriptor, 1, milliseconds)
            if status > 0 { return true }
            if status < 0 && errno != EINTR { return true }
        }
    }
}
