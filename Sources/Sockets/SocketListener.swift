import Dispatch
import Glibc

/// A listening socket that accepts every pending connection when the kernel signals one
/// (until `EAGAIN`) and hands each to `onAccept`, on its own serial queue.
public final class SocketListener: @unchecked Sendable {
    /// The bound address (with the kernel's port when port 0 was asked for).
    public let address: SocketAddress
    private let socket: Socket
    private let queue: DispatchQueue
    private let source: any DispatchSourceRead
    private let onAccept: @Sendable (Socket, SocketAddress) -> Void
    private var isPaused = false

    /// Binds and listens on `address`; accepting starts with `start()`.
    /// - Throws: `SocketError` when binding fails (e.g. `EADDRINUSE`: "Address already in use").
    public init(address: SocketAddress, backlog: Int32, onAccept: @escaping @Sendable (Socket, SocketAddress) -> Void) throws {
        socket = try Socket.listen(on: address, backlog: backlog)
        do {
            self.address = try socket.localAddress()
        } catch {
            socket.close()
            throw error
        }
        self.onAccept = onAccept
        queue = DispatchQueue(label: "http1.listener.\(self.address)")
        source = DispatchSource.makeReadSource(fileDescriptor: socket.fd, queue: queue)
    }

    /// Starts accepting.
    public func start() {
        source.setEventHandler { [self] in acceptPending() }
        source.setCancelHandler { [socket] in socket.close() }
        source.activate()
    }

    /// Stops accepting and closes the listening socket; returns once it is closed, so the port
    /// is free again.
    public func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                if isPaused {
                    isPaused = false
                    source.resume()
                }
                source.setCancelHandler { [socket] in
                    socket.close()
                    continuation.resume()
                }
                source.cancel()
            }
        }
    }

    private func acceptPending() {
        while true {
            do {
                guard let (client, peer) = try socket.accept() else { return }
                onAccept(client, peer)
            } catch {
                // Out of descriptors (EMFILE/ENFILE) or memory: the pending connection stays
                // queued; pause briefly instead of spinning on a source that keeps firing.
                pause(for: .milliseconds(100))
                return
            }
        }
    }

    private func pause(for interval: DispatchTimeInterval) {
        guard !isPaused, !source.isCancelled else { return }
        isPaused = true
        source.suspend()
        queue.asyncAfter(deadline: .now() + interval) { [self] in
            guard isPaused else { return }
            isPaused = false
            source.resume()
        }
    }
}
