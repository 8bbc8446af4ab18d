import Glibc
import Sockets

extension Socket {
    /// Sends the ACK for what was just read now instead of delaying it (`TCP_QUICKACK`), and
    /// leaves the kernel's "interactive" delayed-ACK mode. Linux re-enters that mode on its own
    /// (the flag is not sticky), so call it after every read. Ignored on non-TCP sockets.
    ///
    /// Without it a keep-alive upstream that writes its head and body in two `send`s with Nagle
    /// on stalls the body until our delayed ACK (40 ms) releases it.
    func acknowledgeAtOnce() {
        try? setOption(level: Int32(IPPROTO_TCP), name: TCP_QUICKACK, value: 1)
    }
}
