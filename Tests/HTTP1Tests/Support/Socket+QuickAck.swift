import Glibc
import Sockets

@testable import HTTP1

extension Socket {
    /// The `TCP_QUICKACK` option as the kernel reports it: 1 outside its delayed-ACK
    /// "interactive" mode, 0 inside; -1 when it cannot be read.
    func readsQuickAck() -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &value, &length) == 0 else { return -1 }
        return value
    }
}
