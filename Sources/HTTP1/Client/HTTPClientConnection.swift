import Glibc
import Sockets
import Synchronization

/// One client connection to an upstream, a channel of an ``EventLoop``: a non-blocking socket
/// watched by the loop's epoll, deadlines as loop timers. Carries the operations (connect,
/// exchange) of one ``HTTPClientCall`` at a time, which it tells on the loop how each ended.
///
/// Its mutable state is confined to the loop's thread; hence `@unchecked Sendable`. One call
/// uses it at a time (the pool hands it out exclusively).
final class HTTPClientConnection: EventLoopChannel, @unchecked Sendable {
    /// The socket; closed once the loop has forgotten it.
    let socket: Socket
    /// Where it leads; its pool.
    let destination: HTTPClient.Destination
    /// The loop doing this connection's I/O.
    let loop: EventLoop
    private var isWriting = false
    private var isRegistered = false
    private(set) var isClosed = false
    /// Set (from the loop) once the connection is closed or condemned; read from any thread.
    private let retired = Atomic<Bool>(false)
    /// When the connection last went back to its client's idle pool: set by the client before it
    /// goes in, read once taken out (the pool's lock orders the two).
    var idleSince = LoopInstant.now

    /// The call whose operation is in progress (`nil` between operations), told how it ended,
    /// once, by the code that clears it; `isConnecting` tells which operation it is.
    private var call: HTTPClientCall?
    private var isConnecting = false
    private var exchange: HTTPClientExchange?
    /// The operation's deadline (of its connect, or the exchange's total), and an exchange's
    /// first-byte deadline, which applies only until the answer's first byte: two fields, no list
    /// made per operation.
    private var deadline: Deadline?
    private var firstByteDeadline: LoopInstant?
    /// When the loop timer last scheduled for this connection fires (`nil`: none pending).
    private var timerDue: LoopInstant?

    /// A deadline of the operation in progress (its error is made only if it passes).
    private struct Deadline {
        let instant: LoopInstant
        /// The phase a timeout at this deadline reports.
        let phase: HTTPClientError.Phase
    }

    private init(socket: Socket, destination: HTTPClient.Destination, loop: EventLoop) {
        self.socket = socket
        self.destination = destination
        self.loop = loop
    }

    /// `host:port`, for messages.
    var endpoint: String { destination.endpoint }

    /// The watched descriptor.
    var descriptor: Int32 { socket.fd }

    /// A connection to `address` (of `destination`) for `loop`, its connect started (`isConnected`
    /// when it completed at once); ``connect(isConnected:deadline:phase:for:)`` carries it on.
    /// - Throws: `HTTPClientError` (`connectRefused`, `connectFailed`).
    static func open(
        to address: SocketAddress, destination: HTTPClient.Destination, loop: EventLoop
    ) throws -> (connection: HTTPClientConnection, isConnected: Bool) {
        do {
            let started = try Socket.connect(to: address)
            return (HTTPClientConnection(socket: started.socket, destination: destination, loop: loop), started.isConnected)
        } catch let error as SocketError {
            throw HTTPClientConnection.connectError(error.code, endpoint: destination.endpoint, underlying: error)
        }
    }

    /// Joins the loop and finishes connecting within `deadline` (on the loop's thread); tells
    /// `call` (``HTTPClientCall/connected(_:)``) how it ended.
    func connect(isConnected: Bool, deadline: LoopInstant, phase: HTTPClientError.Phase, for call: HTTPClientCall) {
        self.call = call
        isConnecting = true
        guard register() else {
            let cause = SocketError(operation: "epoll_ctl(\(endpoint))", code: EBADF)
            return fail(HTTPClientError(.connectFailed, "Could not watch \(endpoint).", underlying: cause))
        }
        guard !isConnected else { return connected() }
        setWriting(true)
        arm(Deadline(instant: deadline, phase: phase))
    }

    /// Sends `exchange`'s request and reads its response, within the exchange's deadlines (its
    /// first-byte deadline counted from when the request starts going out), on the loop's
    /// thread; tells `call` (``HTTPClientCall/answered(_:)``) how it ended. A failure closes
    /// the connection.
    func send(_ exchange: HTTPClientExchange, for call: HTTPClientCall) {
        guard !isClosed else { return call.answered(.failure(closedError(afterBytes: false))) }
        self.call = call
        self.exchange = exchange
        arm(Deadline(instant: exchange.totalDeadline, phase: .total), firstByte: exchange.firstByteDeadline())
        writable()
    }

    /// Gives up on the operation in progress (on the loop's thread): it fails with
    /// `CancellationError`, and the connection closes.
    func cancel() {
        fail(CancellationError())
    }

    /// `true` once the connection is closed or must not carry another exchange (it became
    /// readable while idle). Safe from any thread: the pool checks it before reuse.
    var isRetired: Bool { retired.load(ordering: .acquiring) }

    /// Closes the connection (from any thread); an operation in progress fails with `error`.
    func close(failing error: any Error = CancellationError()) {
        loop.execute { [self] in fail(error) }
    }

    // MARK: EventLoopChannel

    /// Readiness from the loop: the end of a connect, an answer's bytes, room to send.
    func handle(_ events: EPoll.Events) {
        if isConnecting { return connected() }
        if !events.isDisjoint(with: [.readable, .hangUp, .error]) { readAvailable() }
        if events.contains(.writable), !isClosed { writable() }
    }

    /// The loop's periodic check: a deadline whose timer has not fired yet is caught here too.
    func checkDeadline(now _: LoopInstant) {
        if deadline != nil || firstByteDeadline != nil { deadlineReached() }
    }

    /// The loop is stopping or closing everything.
    func abort() {
        fail(HTTPClientError(.connectionClosed, "The connection to \(endpoint) was closed: its event loop stopped."))
    }

    // MARK: Operations

    /// Sets the operation's deadlines and arms the timer for the earliest.
    private func arm(_ deadline: Deadline, firstByte: LoopInstant? = nil) {
        self.deadline = deadline
        firstByteDeadline = firstByte
        armNextDeadline()
    }

    /// The first-byte deadline while it applies (until the answer's first byte).
    private var pendingFirstByteDeadline: Deadline? {
        guard let firstByteDeadline, exchange?.hasReceivedBytes != true else { return nil }
        return Deadline(instant: firstByteDeadline, phase: .firstByte)
    }

    private func armNextDeadline() {
        guard !isClosed else { return }
        let next =
            switch (deadline, pendingFirstByteDeadline) {
            case (let deadline?, let firstByte?): min(deadline.instant, firstByte.instant)
            case (let deadline?, nil): deadline.instant
            case (nil, let firstByte?): firstByte.instant
            case (nil, nil): nil as LoopInstant?
            }
        guard let next else { return }
        // A timer already pending fires no later: it re-arms for the rest when it does.
        if let timerDue, timerDue <= next { return }
        timerDue = next
        loop.schedule(at: next) { [self] in
            guard timerDue == next else { return }
            timerDue = nil
            deadlineReached()
        }
    }

    /// Fails the operation when one of its deadlines has passed (the total one first); re-arms otherwise.
    private func deadlineReached() {
        let now = LoopInstant.now
        if let deadline, deadline.instant <= now { return fail(timeoutError(deadline)) }
        if let firstByte = pendingFirstByteDeadline, firstByte.instant <= now { return fail(timeoutError(firstByte)) }
        armNextDeadline()
    }

    /// The error of a deadline that has passed.
    private func timeoutError(_ deadline: Deadline) -> HTTPClientError {
        let message =
            if isConnecting { "Connecting to \(endpoint) timed out." }
            else if deadline.phase == .firstByte { "\(endpoint) did not answer in time." }
            else { "The call to \(endpoint) timed out." }
        return HTTPClientError(.timeout(deadline.phase), message)
    }

    /// Ends the operation in progress (its deadlines no longer apply: a pending timer finds none)
    /// and returns the call to tell how it ended.
    private func endOperation() -> HTTPClientCall? {
        let call = self.call
        self.call = nil
        isConnecting = false
        exchange = nil
        deadline = nil
        firstByteDeadline = nil
        return call
    }

    /// Ends the operation in progress with `error` (if any, telling its call once the connection
    /// is closed) and closes the connection.
    private func fail(_ error: any Error) {
        let wasConnecting = isConnecting
        let call = endOperation()
        if !isClosed {
            isClosed = true
            retired.store(true, ordering: .releasing)
            if isRegistered { loop.remove(self) }
            socket.close()
        }
        if wasConnecting { call?.connected(error) } else { call?.answered(.failure(error)) }
    }

    /// Joins the loop's channels, watched for reading (a pooled connection keeps reading).
    private func register() -> Bool {
        guard !isClosed else { return false }
        do {
            try loop.add(self)
            isRegistered = true
            return true
        } catch {
            return false
        }
    }

    // MARK: Readiness

    private func writable() {
        if isConnecting { return connected() }
        while let exchange, !exchange.isSent {
            let result = exchange.outbound.withUnsafeBytes {
                socket.send(UnsafeRawBufferPointer(rebasing: $0[exchange.sent...]))
            }
            switch result {
            case .sent(let count):
                exchange.sent += count
            case .wouldBlock:
                return setWriting(true)
            case .failed(let code):
                return fail(closedError(afterBytes: exchange.hasReceivedBytes, code: code))
            }
        }
        setWriting(false)
    }

    private func connected() {
        let code = socket.pendingError()
        guard code == 0 else {
            let cause = SocketError(operation: "connect(\(endpoint))", code: code)
            return fail(Self.connectError(code, endpoint: endpoint, underlying: cause))
        }
        let call = endOperation()
        setWriting(false)
        call?.connected(nil)
    }

    /// Reads until the socket has nothing more (`EAGAIN`; the source may not fire again for bytes
    /// already there), parsing after every read so the body limit holds as bytes arrive. A read
    /// that leaves the answer incomplete acknowledges at once: an upstream writing head and body
    /// separately with Nagle on holds the body until the head is acknowledged, and a delayed ACK
    /// would cost ~40 ms per answer. A read that completes the answer does not (one system call
    /// less per exchange): the upstream has nothing more to send, and our next request carries
    /// the ACK (sending soon after receiving puts Linux back into delayed-ACK mode anyway).
    private func readAvailable() {
        guard exchange != nil else { return idleReadable() }
        let buffer = loop.readBuffer
        while exchange != nil, !isClosed {
            switch socket.read(into: buffer) {
            case .bytes(let count):
                let step = exchange?.step(reading: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                if case .needMore? = step { socket.acknowledgeAtOnce() }
                finish(step)
            case .wouldBlock:
                return
            case .closed:
                return finish(exchange?.step(endOfStream: true))
            case .failed(let code):
                return fail(closedError(afterBytes: exchange?.hasReceivedBytes ?? false, code: code))
            }
        }
    }

    /// Bytes or an end of stream while no request is out (the read source stays on while the
    /// connection is pooled): a late or unasked answer, or the upstream closing. Either way the
    /// connection is out of step with its requests, so it is closed and never reused.
    private func idleReadable() {
        fail(
            HTTPClientError(
                .connectionClosed, "\(endpoint) sent bytes or closed while the connection was idle.",
                underlying: nil, closedBeforeAnswer: true))
    }

    /// Ends the exchange when `step` says the response is complete or broken.
    private func finish(_ step: HTTPClientExchange.Step?) {
        switch step {
        case .needMore, nil:
            return
        case .malformed(let error):
            fail(HTTPClientError(.malformedResponse, "\(endpoint) sent an invalid response.", underlying: error))
        case .closedEarly:
            fail(closedError(afterBytes: exchange?.hasReceivedBytes ?? false))
        case .overBudget:
            fail(HTTPClientError(.overBudget, "The answer from \(endpoint) would exceed the in-flight body budget."))
        case .response(let response, let reusable):
            let sentAll = exchange?.isSent ?? false
            let call = endOperation()
            // A connection going back to the pool keeps reading: anything it receives while idle condemns it.
            setWriting(false)
            call?.answered(.success((response, reusable && sentAll)))
        }
    }

    private func setWriting(_ on: Bool) {
        guard on != isWriting, !isClosed, isRegistered else { return }
        isWriting = on
        loop.watch(self, for: on ? [.readable, .writable] : .readable)
    }

    // MARK: Errors

    private func closedError(afterBytes: Bool, code: Int32? = nil) -> HTTPClientError {
        HTTPClientError(
            .connectionClosed, "\(endpoint) closed the connection before the response was complete.",
            underlying: code.map { SocketError(operation: "read(\(endpoint))", code: $0) },
            closedBeforeAnswer: !afterBytes)
    }

    private static func connectError(_ code: Int32, endpoint: String, underlying: SocketError) -> HTTPClientError {
        code == ECONNREFUSED
            ? HTTPClientError(.connectRefused, "\(endpoint) refused the connection.", underlying: underlying)
            : HTTPClientError(.connectFailed, "Could not connect to \(endpoint).", underlying: underlying)
    }
}
