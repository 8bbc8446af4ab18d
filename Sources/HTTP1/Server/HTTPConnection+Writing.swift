extension HTTPConnection {
    /// Queues bytes behind whatever is already waiting; `flush()` sends them.
    func enqueue(_ bytes: [UInt8]) {
        if outbound.isEmpty {
            outbound = bytes
        } else {
            outbound.append(contentsOf: bytes)
        }
    }

    /// Sends what is queued, as far as the socket takes it now. A full send buffer arms the
    /// write source (and the write deadline); a failed send closes the connection.
    func flush() {
        guard !isClosed else { return }
        while outboundOffset < outbound.count {
            let result = outbound.withUnsafeBytes {
                socket.send(UnsafeRawBufferPointer(rebasing: $0[outboundOffset...]))
            }
            switch result {
            case .sent(let count):
                outboundOffset += count
            case .wouldBlock:
                machine.writeBlocked(now: loop.now)
                waitForWritable(true)
                return
            case .failed:
                return close()
            }
        }
        outboundDrained()
    }

    private func outboundDrained() {
        outbound = []
        outboundOffset = 0
        machine.writeDrained()
        waitForWritable(false)
        if let drainWaiter {
            self.drainWaiter = nil
            drainWaiter.resume(returning: true)
        }
        if closesAfterFlush { closeGracefully() }
    }

    /// Whether enough is queued that a stream should wait before producing more.
    var isOutboundFull: Bool { outbound.count - outboundOffset > 64 * 1_024 }
}
