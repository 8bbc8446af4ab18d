import Sockets
import Synchronization

/// An HTTP/1.1 client for `http://` upstreams: non-blocking sockets on event loops, a keep-alive
/// pool per `host:port`, and connect / first-byte / total timeouts.
///
/// A call made from a task running on an ``EventLoop`` (a server's request handler) does its I/O
/// on that loop, on a connection pooled for that loop when there is one, else on a new one: the
/// whole exchange then runs on one thread. Other callers use the client's own loops, started on
/// first use. Idle connections are pooled per `host:port` and loop, and a call only takes one of
/// its own loop's (one of another loop's would move its I/O to that loop's thread and back).
///
/// A pooled connection is reused only when it is idle, younger than `idleTimeout`, and the peer
/// has neither closed it nor sent a byte since its last answer (the connection keeps reading
/// while pooled and is condemned by anything it receives; for a method that may not be retried,
/// a non-blocking peek checks again at reuse). An answer followed by bytes nobody asked for (a
/// wrong `Content-Length`, a body on a bodiless answer, an extra response) is an error
/// (`malformedResponse`), never returned. When a reused connection still turns out closed before
/// any byte of the answer, an idempotent request is retried once on a new connection. Host names
/// are resolved once per `host:port` and cached (the resolver blocks, so prefer IP literals or
/// `localhost`).
public final class HTTPClient: Sendable {
    /// The pool and parsing settings.
    public let configuration: Configuration
    /// `configuration.idleTimeout` in nanoseconds, taken apart once (a `Duration` costs 128-bit
    /// arithmetic per call).
    private let idleTimeoutNanoseconds: Int64
    private let ownLoops = Mutex<[EventLoop]>([])
    private let nextLoop = Atomic<Int>(0)
    /// Every `host:port` called, with its idle connections (by loop) and its address.
    private let destinations = Mutex<[String: Destination]>([:])

    /// Creates a client; its own event loops start when a caller outside any loop first needs one.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        idleTimeoutNanoseconds = LoopInstant.nanoseconds(of: configuration.idleTimeout)
    }

    deinit {
        closeIdleConnections()
        for loop in ownLoops.withLock({ $0 }) { loop.stop() }
    }

    /// Sends `request` (its `target` is the path and query) to `host`:`port` and returns the whole
    /// response, its body as `.bytes`. Interim 1xx responses are skipped.
    /// - Throws: `HTTPClientError`, or `CancellationError` when the calling task is cancelled
    ///   (the connection is closed then).
    public func send(
        _ request: HTTPRequest, to host: String, port: Int, timeouts: Timeouts = Timeouts()
    ) async throws -> HTTPResponse {
        try await send(request, to: destination(host: host, port: port), timeouts: timeouts)
    }

    /// The client's ``Destination`` for `host`:`port`: the same one on every call, so that a
    /// caller may keep it (and send to it without this look-up).
    public func destination(host: String, port: Int) -> Destination {
        let endpoint = Destination.endpoint(host: host, port: port)
        return destinations.withLock { destinations in
            if let known = destinations[endpoint] { return known }
            let made = Destination(host: host, port: port)
            destinations[endpoint] = made
            return made
        }
    }

    /// Sends `request` to `destination` (one of this client's), as ``send(_:to:port:timeouts:)`` does.
    /// - Throws: `HTTPClientError`, or `CancellationError` when the calling task is cancelled
    ///   (the connection is closed then).
    public func send(
        _ request: HTTPRequest, to destination: Destination, timeouts: Timeouts = Timeouts()
    ) async throws -> HTTPResponse {
        let loop = try EventLoop.current ?? ownLoop()
        let call = makeCall(request, to: destination, timeouts: timeouts, on: loop)
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                // A caller already on the loop's thread (a handler task preferring the loop) starts at once.
                if loop.isInLoopThread {
                    call.start(ending: .resuming(continuation))
                } else {
                    loop.execute { call.start(ending: .resuming(continuation)) }
                }
            }
        } onCancel: {
            loop.execute { call.cancel() }
        }
    }

    /// Sends `request` to `destination` from `loop`'s thread, on a connection of that loop, and
    /// calls `completion` there once with the whole response (its body as `.bytes`) or the error
    /// (`HTTPClientError`; `CancellationError` after ``HTTPClientCall/cancel()``). It may be called
    /// before this method returns (a refused connect). With `keepingFieldLines`, the response
    /// carries its field lines as received and only its framing fields as `headers` (see
    /// ``HTTPResponseParser/init(requestMethod:limits:keepingFieldLines:)``). Otherwise as
    /// ``send(_:to:port:timeouts:)``.
    /// - Returns: The call, to cancel it (on the loop's thread).
    @discardableResult
    public func send(
        _ request: HTTPRequest, to destination: Destination, timeouts: Timeouts = Timeouts(),
        keepingFieldLines: Bool = false, on loop: EventLoop, completion: @escaping HTTPClientCall.Completion
    ) -> HTTPClientCall {
        started(
            makeCall(request, to: destination, timeouts: timeouts, keepingFieldLines: keepingFieldLines, on: loop),
            completion: completion)
    }

    /// ``send(_:to:timeouts:keepingFieldLines:on:completion:)`` of a request serialized already,
    /// exactly as ``HTTPSerializer/request(_:host:port:)`` writes it for `destination` (a caller
    /// sending many alike writes their common parts once): its method is `method`, and
    /// `keepsAlive` says whether it asks to keep the connection.
    /// - Returns: The call, to cancel it (on the loop's thread).
    @discardableResult
    public func send(
        serialized request: [UInt8], method: HTTPMethod, keepsAlive: Bool, to destination: Destination,
        timeouts: Timeouts = Timeouts(), keepingFieldLines: Bool = false, on loop: EventLoop,
        completion: @escaping HTTPClientCall.Completion
    ) -> HTTPClientCall {
        let exchange = HTTPClientExchange(
            serialized: request, method: method, keepsAlive: keepsAlive, limits: configuration.limits,
            budget: configuration.bodyBudget, timeouts: timeouts, keepingFieldLines: keepingFieldLines)
        return started(makeCall(exchange, to: destination, on: loop), completion: completion)
    }

    /// `call`, started with its completion.
    private func started(_ call: HTTPClientCall, completion: @escaping HTTPClientCall.Completion) -> HTTPClientCall {
        call.start(ending: .callback(completion))
        return call
    }

    /// A call of `request`, not started: its exchange keeps the call's deadlines, counted from now.
    private func makeCall(
        _ request: HTTPRequest, to destination: Destination, timeouts: Timeouts, keepingFieldLines: Bool = false,
        on loop: EventLoop
    ) -> HTTPClientCall {
        makeCall(
            HTTPClientExchange(
                request, host: destination.host, port: destination.port, limits: configuration.limits,
                budget: configuration.bodyBudget, timeouts: timeouts, keepingFieldLines: keepingFieldLines),
            to: destination, on: loop)
    }

    /// A call of `exchange`, not started.
    private func makeCall(_ exchange: HTTPClientExchange, to destination: Destination, on loop: EventLoop)
        -> HTTPClientCall
    {
        HTTPClientCall(
            client: self, destination: destination, loop: loop, exchange: exchange,
            isIdempotent: Self.isIdempotent(exchange.requestMethod))
    }

    /// Closes every idle pooled connection (connections in use close when their call ends).
    public func closeIdleConnections() {
        for destination in destinations.withLock({ Array($0.values) }) {
            for connection in destination.takeAllIdle() { connection.close() }
        }
    }

    /// How many of the client's own event loops have started (callers on a loop use that loop).
    var ownLoopCount: Int { ownLoops.withLock { $0.count } }

    /// Idle connections pooled for `host`:`port` right now.
    public func idleConnectionCount(host: String, port: Int) -> Int {
        let endpoint = Destination.endpoint(host: host, port: port)
        return destinations.withLock { $0[endpoint] }?.idleCount ?? 0
    }

    /// One of the client's own loops, round robin (they start on first use).
    /// - Throws: `HTTPClientError` (`connectFailed`) when a loop cannot start.
    private func ownLoop() throws -> EventLoop {
        try ownLoops.withLock { loops in
            do {
                while loops.count < max(1, configuration.eventLoopCount) {
                    let loop = try EventLoop(checkInterval: .seconds(1))
                    try loop.start()
                    loops.append(loop)
                }
            } catch let error as SocketError {
                throw HTTPClientError(.connectFailed, "Could not start the client's event loop.", underlying: error)
            }
            return loops[nextLoop.wrappingAdd(1, ordering: .relaxed).oldValue % loops.count]
        }
    }

    /// The most recently used idle connection of `destination` on `loop` that is still fit for
    /// reuse; unfit ones are closed. `probing` also asks the socket (a non-blocking peek, one system
    /// call) whether the peer closed it or sent bytes since the loop last looked: worth it for a
    /// request that may not be retried; an idempotent one is retried on a new connection instead
    /// when a reused one turns out closed.
    func checkOut(_ destination: Destination, on loop: EventLoop, probing: Bool) -> HTTPClientConnection? {
        let now = LoopInstant.now
        while let connection = destination.takeIdle(on: loop) {
            if !connection.isRetired, now.nanoseconds(since: connection.idleSince) < idleTimeoutNanoseconds,
                !probing || connection.socket.isIdleAndOpen()
            {
                return connection
            }
            connection.close()
        }
        return nil
    }

    /// Pools `connection` after an answer (closes it when its loop's pool is full).
    func checkIn(_ connection: HTTPClientConnection) {
        connection.idleSince = .now
        if !connection.destination.pool(connection, limit: configuration.maxIdleConnectionsPerHost) {
            connection.close()
        }
    }

    /// The address of `destination`, resolved once.
    func address(of destination: Destination) throws -> SocketAddress {
        if let cached = destination.address.withLock({ $0 }) { return cached }
        do {
            let resolved = try SocketAddress(host: destination.host, port: destination.port)
            destination.address.withLock { $0 = resolved }
            return resolved
        } catch let error as SocketError {
            throw HTTPClientError(.connectFailed, "Could not resolve \(destination.endpoint).", underlying: error)
        }
    }

    /// Methods safe to send twice (RFC 9110 §9.2.2).
    private static func isIdempotent(_ method: HTTPMethod) -> Bool { idempotentMethods.contains(method) }

    /// Made once, not on every call.
    private static let idempotentMethods: [HTTPMethod] = [
        .get, .head, .put, .delete, .options, HTTPMethod(rawValue: "TRACE"),
    ]
}
