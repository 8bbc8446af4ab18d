import Sockets

extension HTTPConnection {
    /// Queues bytes behind whatever is already waiting (by reference: a body is not copied);
    /// `flush()` sends them.
    func enqueue(_ bytes: [UInt8]) {
        outbound.append(bytes)
    }

    /// Queues `bytes` as a segment of their own (a body, by reference: see ``HTTPOutboundQueue/append(unjoined:)``).
    func enqueue(unjoined bytes: [UInt8]) {
        outbound.append(unjoined: bytes)
    }

    /// Sends what is queued, as far as the socket takes it now, a `writev` of several segments
    /// at a time. A full send buffer arms the write source (and the write deadline); a failed
    /// send closes the connection.
    func flush() {
        guard !isClosed else { return }
        while !outbound.isEmpty {
            switch outbound.send(to: socket) {
            case .sent:
                continue
            case .wouldBlock:
                machine.writeBlocked(now: loop.instant)
                capStreamLag()
                waitForWritable(true)
                return
            case .failed:
                return close()
            }
        }
        outboundDrained()
    }

    /// The queue is empty (its segment list kept, with its capacity, for the next answer).
    private func outboundDrained() {
        streamBehindSince = nil
        machine.writeDrained()
        waitForWritable(false)
        if let drainWaiter {
            self.drainWaiter = nil
            drainWaiter.resume(returning: true)
        }
        if closesAfterFlush { closeGracefully() }
    }

    /// While a streamed body is behind (queued bytes the client has not taken), it must catch
    /// up within `limits.maxStreamLag` of falling behind, however slowly it makes progress.
    private func capStreamLag() {
        guard isStreaming else { return }
        let since = streamBehindSince ?? loop.instant
        streamBehindSince = since
        machine.capWriteDeadline(at: since + context.configuration.limits.maxStreamLag)
    }

    /// Whether enough is queued that a stream should wait before producing more.
    var isOutboundFull: Bool { outbound.count > 64 * 1_024 }
}
