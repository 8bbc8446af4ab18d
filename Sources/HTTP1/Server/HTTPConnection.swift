import Sockets

/// One client connection: reads bytes, drives the parser and `HTTPConnectionStateMachine`,
/// calls the handler, writes responses in request order.
///
/// Confined to its event loop: every method runs on the loop's thread (handler tasks hop back
/// with `loop.execute`), so its state needs no lock; hence `@unchecked Sendable`.
final class HTTPConnection: EventLoopChannel, @unchecked Sendable {
    /// The connected socket; closed by `close()`.
    let socket: Socket
    /// The loop this connection lives on.
    let loop: EventLoop
    /// Handler, configuration, connection count.
    let context: HTTPConnectionContext
    /// The peer's numeric address, set on every request.
    let remoteAddress: String

    /// Phase, keep-alive and deadlines.
    var machine: HTTPConnectionStateMachine
    /// The incremental parser for the request being read.
    var parser: HTTPRequestParser
    /// Received bytes not parsed yet (a partial request, or pipelined requests waiting their turn).
    private(set) var inbound = HTTPInboundBuffer()
    /// Set while `parseBufferedRequests()` runs, so nothing it calls can start it again.
    private(set) var isParsing = false
    /// Bytes waiting for the socket to accept them: heads, and bodies by reference.
    var outbound = HTTPOutboundQueue()
    /// `true` while a streamed body is being written.
    var isStreaming = false
    /// Since when a streamed body has had bytes queued that the client did not take.
    var streamBehindSince: LoopInstant?
    /// Close once `outbound` is written.
    var closesAfterFlush = false
    /// The method of the request being answered (`HEAD` is answered without a body).
    var answeringMethod = HTTPMethod.get
    /// The handler or stream job for the request being answered (a task of the loop's, see
    /// `EventLoop.startTask(_:)`).
    var task: EventLoopTask?
    /// `true` while the handler answers the request on the loop, without a task
    /// (``HTTPHandler/answerOnLoop(_:_:)``).
    var isAwaitingLoopAnswer = false
    /// What gives up on that work when the connection closes first (``HTTPLoopAnswer/onCancel(_:)``).
    var loopAnswerCancel: (() -> Void)?
    /// A stream task waiting for `outbound` to drain (backpressure), resumed with `false` on close.
    /// Unsafe (a checked continuation's optional is tested through the runtime each time the
    /// outbound queue drains, on every response): resumed once, by the code that clears it.
    var drainWaiter: UnsafeContinuation<Bool, Never>?
    /// Set while lingering: the response is out and the write side shut down; input is read
    /// and dropped until the client closes or this instant passes (so it sees the response, not a reset).
    private var lingerDeadline: LoopInstant?

    /// Accepted into the reserve past `maxConnections`: answers `reservedPaths` only, then closes.
    var isReserved = false
    /// The `Date` header value of this second.
    var dates = HTTPDateCache()
    private var isReadSuspended = false
    private var isWaitingToWrite = false
    private(set) var isClosed = false

    /// A connection on `socket`, not yet reading: call `start()` on the loop.
    init(socket: Socket, remoteAddress: String, loop: EventLoop, context: HTTPConnectionContext) {
        self.socket = socket
        self.loop = loop
        self.context = context
        self.remoteAddress = remoteAddress
        self.machine = HTTPConnectionStateMachine(timeouts: context.timeouts, now: loop.instant)
        self.parser = HTTPRequestParser(limits: context.configuration.limits.parser)
    }

    /// Registers with the loop and starts reading; closes at once if the loop refuses it.
    func start() {
        do {
            try loop.add(self)
        } catch {
            socket.close()
            context.tracker.release()
            isClosed = true
        }
    }

    /// Handles readiness reported by the loop.
    func handle(_ events: EPoll.Events) {
        if events.contains(.writable) { flush() }
        guard !isClosed, !events.isDisjoint(with: [.readable, .error, .hangUp]) else { return }
        if isReadSuspended {
            if !events.isDisjoint(with: [.error, .hangUp]) { close() }
            return
        }
        readAvailable()
    }

    // MARK: Reading

    /// Reads what the socket holds, up to a budget (the loop is level-triggered: whatever is
    /// left, a reset included, is reported again on the next turn).
    private func readAvailable() {
        let buffer = loop.readBuffer
        for _ in 0..<16 {
            switch socket.read(into: buffer) {
            case .bytes where lingerDeadline != nil:
                continue
            case .bytes(let count):
                received(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                guard !isClosed, !isReadSuspended, count == buffer.count else { return flush() }
            case .wouldBlock:
                return flush()
            case .closed, .failed:
                return close()
            }
        }
        flush()
    }

    private func received(_ bytes: UnsafeRawBufferPointer) {
        machine.bytesReceived(now: loop.instant)
        guard machine.state != .responding, machine.state != .closing, inbound.isEmpty, !isParsing else {
            if acceptsMoreInput { inbound.append(bytes) }
            if inbound.count > context.configuration.limits.maxBufferedBytes { suspendReading() }
            return parseBufferedRequests()
        }
        // Nothing is waiting: parse straight from the read buffer and keep only the rest.
        isParsing = true
        let consumed = parseRequests(in: bytes)
        isParsing = false
        if consumed < bytes.count, acceptsMoreInput {
            inbound.append(UnsafeRawBufferPointer(rebasing: bytes[consumed...]))
        }
    }

    /// Whether received bytes may still be needed: not once the connection is closed, lingering,
    /// or closing after its last answer (bytes after that request are never read).
    private var acceptsMoreInput: Bool { !isClosed && lingerDeadline == nil && !closesAfterFlush }

    /// Parses and answers the requests waiting in `inbound`, in order, while the connection
    /// is ready for them. Works on a snapshot: a handler answering at once, an error or a close
    /// may discard `inbound` meanwhile, and only bytes still held are then dropped.
    func parseBufferedRequests() {
        guard !inbound.isEmpty, !isParsing, !isClosed, machine.state != .responding,
            machine.state != .closing
        else { return }
        isParsing = true
        defer { isParsing = false }
        resumeReading()
        machine.bytesReceived(now: loop.instant)
        let snapshot = inbound.snapshot()
        let consumed = snapshot.withBytes { parseRequests(in: $0) }
        inbound.consume(consumed, of: snapshot)
    }

    /// Parses requests from `bytes` and answers them while each is answered at once and the
    /// connection stays open; returns how many bytes were used (all of them after an error).
    private func parseRequests(in bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while offset < bytes.count, !isClosed, !closesAfterFlush, machine.state != .responding {
            let remaining = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            switch parser.parse(remaining) {
            case .complete(let request, let consumed):
                offset += consumed
                guard dispatch(request) else { return offset }
            case .incomplete:
                if parser.isReadingBody {
                    perform(machine.headReceived(expectsContinue: parser.takeContinueExpectation(), now: loop.instant))
                }
                return offset
            case .invalid(let error):
                fail(error)
                return bytes.count
            }
        }
        return offset
    }

    // MARK: Deadlines and shutdown

    /// Applies any deadline that has passed by `now` (called by the loop's timer).
    func checkDeadline(now: LoopInstant) {
        if let lingerDeadline {
            if lingerDeadline <= now { close() }
            return
        }
        guard let deadline = machine.deadline, deadline <= now else { return }
        perform(machine.timeout(now: now))
    }

    /// Graceful shutdown: an idle connection closes now, a busy one after its response.
    func drain() {
        perform(machine.shutdown())
    }

    /// Carries out a state-machine action.
    func perform(_ action: HTTPConnectionStateMachine.Action) {
        switch action {
        case .none:
            break
        case .sendContinue:
            enqueue(HTTPSerializer.continueResponse)
            flush()
        case .sendErrorAndClose(let status):
            sendError(HTTPErrorResponse.make(status: status))
        case .readNextRequest:
            parseBufferedRequests()
            flush()
        case .closeAfterFlush:
            closesAfterFlush = true
            suspendReading()
            flush()
        case .close:
            close()
        }
    }

    // MARK: Sources and closing

    /// After a final response: shuts down the write side and drains input for up to two seconds
    /// before closing, so unread request bytes do not turn the close into a reset that could
    /// destroy the response in flight (RFC 9112 §9.6).
    func closeGracefully() {
        guard !isClosed, lingerDeadline == nil else { return }
        socket.shutdownWrite()
        lingerDeadline = loop.instant + .seconds(2)
        inbound.discard()
        resumeReading()
    }

    /// Stops reading (backpressure, or nothing more to read before closing).
    func suspendReading() {
        guard !isReadSuspended, !isClosed else { return }
        isReadSuspended = true
        updateInterest()
    }

    /// Reads again.
    func resumeReading() {
        guard isReadSuspended, !isClosed, !closesAfterFlush || lingerDeadline != nil else { return }
        isReadSuspended = false
        updateInterest()
    }

    /// Watches for writability (`true`: the socket's send buffer was full) or stops watching.
    func waitForWritable(_ waiting: Bool) {
        guard waiting != isWaitingToWrite, !isClosed else { return }
        isWaitingToWrite = waiting
        updateInterest()
    }

    private func updateInterest() {
        var interest: EPoll.Events = []
        if !isReadSuspended { interest.insert(.readable) }
        if isWaitingToWrite { interest.insert(.writable) }
        loop.watch(self, for: interest)
    }

    /// Closes now: cancels the handler or stream task, leaves the loop, closes the descriptor.
    /// `releasingSlot: false` hands its place in the connection count to a new connection.
    func close(releasingSlot: Bool = true) {
        guard !isClosed else { return }
        isClosed = true
        _ = machine.peerClosed()
        cancelHandlerWork()
        drainWaiter?.resume(returning: false)
        drainWaiter = nil
        loop.remove(self)
        socket.close()
        if releasingSlot { context.tracker.release() }
        inbound.discard()
        outbound.removeAll()
    }

    /// The socket's descriptor, watched by the loop.
    var descriptor: Int32 { socket.fd }

    /// Closes now, releasing the slot (the loop is stopping or closing every connection).
    func abort() {
        close()
    }
}
