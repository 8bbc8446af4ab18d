import Glibc

extension Socket {
    /// Sends as much of the buffers described by `vectors` as the kernel takes now, in one
    /// `sendmsg` (a `writev` that never raises `SIGPIPE`).
    public func send(vectors: UnsafeBufferPointer<iovec>) -> SendResult {
        var message = msghdr()
        message.msg_iov = UnsafeMutablePointer(mutating: vectors.baseAddress)
        message.msg_iovlen = vectors.count
        while true {
            let count = sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
            if count >= 0 { return .sent(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case let code: return .failed(code)
            }
        }
    }
}
