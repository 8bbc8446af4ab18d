import Glibc
import Sockets
import Synchronization

/// An HTTP/1.1 server on non-blocking POSIX sockets and a few epoll event-loop threads.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), handler: handler)
/// try await server.start()          // bound: server.port is the real port
/// …
/// await server.shutdown(gracePeriod: .seconds(5))
/// ```
///
/// Each request goes first to the handler's `respondImmediately(to:)` on the event loop, then,
/// when that returns `nil`, to `handle(_:)` in a task (cancelled if the client goes away).
/// Limits and timeouts come from `Configuration`; see its members for the defaults. Call
/// `shutdown(gracePeriod:)` (or cancel `run()`) when done: the event-loop threads run until then.
public final class HTTPServer: Sendable {
    private enum Phase {
        case idle
        case starting
        case running(SocketListener, EventLoopGroup)
        case stopping
        case stopped
    }

    private struct State {
        var phase = Phase.idle
        var boundPort: Int?
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The configuration the server was created with.
    public let configuration: Configuration
    private let handler: any HTTPHandler
    let tracker: ConnectionTracker
    private let state = Mutex(State())

    /// Creates a server; nothing is bound until `start()`.
    public init(configuration: Configuration = Configuration(), handler: any HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
        self.tracker = ConnectionTracker(
            maximum: configuration.maxConnections, reserve: configuration.reservedConnections)
    }

    /// The bound port once `start()` returned (the kernel's choice when the configured port is 0);
    /// the configured port before.
    public var port: Int { state.withLock { $0.boundPort ?? configuration.port } }

    /// Open connections now.
    public var openConnections: Int { tracker.openConnections }

    /// Binds, listens and starts serving.
    /// - Throws: `SocketError` when the address does not resolve or cannot be bound
    ///   (e.g. "Address already in use"), or when the server was already started.
    public func start() async throws {
        try state.withLock { state in
            guard case .idle = state.phase else {
                throw SocketError(operation: "start", code: EALREADY, message: "server already started")
            }
            state.phase = .starting
        }
        do {
            let address = try SocketAddress(host: configuration.host, port: configuration.port)
            let group = try EventLoopGroup(
                count: configuration.eventLoopThreads, checkInterval: configuration.timeouts.checkInterval)
            let listener: SocketListener
            do {
                listener = try makeListener(address: address, group: group)
            } catch {
                group.stop()
                throw error
            }
            state.withLock { state in
                state.boundPort = listener.address.port
                state.phase = .running(listener, group)
            }
            listener.start()
        } catch {
            state.withLock { $0.phase = .idle }
            throw error
        }
    }

    /// A listener that admits each accepted socket and starts its connection on the next loop;
    /// past `maxConnections` the loop first closes its longest-idle connection to make room, or
    /// failing that serves the new one from the reserve; with the reserve full too, the oldest
    /// reserve connection still waiting for its request makes room, else the socket is closed.
    private func makeListener(address: SocketAddress, group: EventLoopGroup) throws -> SocketListener {
        let context = HTTPConnectionContext(handler: handler, configuration: configuration, tracker: tracker)
        let tracker = tracker
        return try SocketListener(address: address, backlog: configuration.backlog) { socket, peer in
            let admission = tracker.admit()
            socket.setNoDelay()
            let loop = group.next()
            let remoteAddress = peer.host
            loop.execute {
                let connection = HTTPConnection(
                    socket: socket, remoteAddress: remoteAddress, loop: loop, context: context)
                switch admission {
                case .normal:
                    break
                case .reserve:
                    connection.isReserved = !loop.closeConnectionToMakeRoom()
                case .refused:
                    if loop.closeConnectionToMakeRoom(handingOverSlot: true) { break }
                    guard loop.closeReserveConnectionToMakeRoom() else {
                        tracker.record(\.refused)
                        return socket.close()
                    }
                    connection.isReserved = true
                }
                if admission != .normal { tracker.record(connection.isReserved ? \.servedFromReserve : \.madeRoom) }
                connection.start()
            }
        }
    }

    /// Graceful shutdown: stops accepting (the port is free when this returns), closes idle
    /// keep-alive connections, lets requests in progress finish (answered with
    /// `Connection: close`) for up to `gracePeriod`, then closes whatever is left and returns.
    public func shutdown(gracePeriod: Duration = .seconds(10)) async {
        let running = state.withLock { state -> (SocketListener, EventLoopGroup)? in
            guard case .running(let listener, let group) = state.phase else { return nil }
            state.phase = .stopping
            return (listener, group)
        }
        guard let (listener, group) = running else { return await waitUntilShutdown() }
        await listener.stop()
        group.drainConnections()
        let deadline = Task {
            try await Task.sleep(for: gracePeriod)
            group.closeConnections()
        }
        await tracker.waitUntilEmpty()
        deadline.cancel()
        group.stop()
        let waiters = state.withLock { state in
            state.phase = .stopped
            defer { state.stopWaiters.removeAll() }
            return state.stopWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once `shutdown(gracePeriod:)` has finished (at once if the server never started).
    public func waitUntilShutdown() async {
        await withCheckedContinuation { continuation in
            let finished = state.withLock { state in
                switch state.phase {
                case .idle, .stopped:
                    return true
                case .starting, .running, .stopping:
                    state.stopWaiters.append(continuation)
                    return false
                }
            }
            if finished { continuation.resume() }
        }
    }

    /// Starts (unless already running) and serves until shut down; cancelling the calling task
    /// shuts the server down with `gracePeriod`.
    /// - Throws: `SocketError` from `start()`.
    public func run(gracePeriod: Duration = .seconds(10)) async throws {
        if case .idle = state.withLock({ $0.phase }) { try await start() }
        await withTaskCancellationHandler {
            await waitUntilShutdown()
        } onCancel: {
            Task { await self.shutdown(gracePeriod: gracePeriod) }
        }
    }
}
