import Sockets

/// The life of one HTTP/1.1 connection as a pure value: it is told what happened (bytes arrived,
/// a request head or a whole request was parsed, a response went out, time passed, the server is
/// shutting down) and answers with what to do. No I/O, no clock of its own: `HTTPConnection`
/// does the I/O, and tests drive it with chosen instants.
///
/// Deadlines (RFC 9112 §9.8 leaves them to the server):
/// - a request head must be complete within `headerRead` of its first byte (or of the connection
///   opening): otherwise 408 and close, so a slow-loris client cannot hold the connection;
/// - a body must make progress every `bodyRead`, else the connection is dropped;
/// - the whole request, head and body, must arrive within `request` of its first byte, however
///   steadily it trickles, else 408 (head incomplete) or the connection is dropped (body);
/// - between requests a keep-alive connection may idle for `idleKeepAlive`;
/// - a blocked write must make progress every `write`.
struct HTTPConnectionStateMachine {
    /// Where the connection is in its request/response cycle.
    enum State: Equatable {
        /// No byte of the next request yet (`first`: nothing was served on this connection).
        case waitingForRequest(first: Bool)
        /// Part of a request head arrived.
        case readingHead
        /// The head is complete; the body is arriving.
        case readingBody
        /// The request is with the handler, or its response is going out.
        case responding
        /// A final answer (an error) is going out; the connection closes after it.
        case closing
        /// Closed; every further event is ignored.
        case closed
    }

    /// What `HTTPConnection` must do next.
    enum Action: Equatable {
        /// Nothing.
        case none
        /// Send `HTTP/1.1 100 Continue` now (the client waits for it before sending the body).
        case sendContinue
        /// Send an error response with this status and `Connection: close`, then close.
        case sendErrorAndClose(status: Int)
        /// The response is out and the connection stays open: parse the next (maybe pipelined) request.
        case readNextRequest
        /// Close once everything queued has been written.
        case closeAfterFlush
        /// Close now.
        case close
    }

    /// The server's timeouts in nanoseconds, converted once per server.
    struct Timeouts: Sendable {
        let headerRead: Int64
        let bodyRead: Int64
        let request: Int64
        let idleKeepAlive: Int64
        let write: Int64

        init(_ timeouts: HTTPServer.Configuration.Timeouts) {
            headerRead = LoopInstant.nanoseconds(of: timeouts.headerRead)
            bodyRead = LoopInstant.nanoseconds(of: timeouts.bodyRead)
            request = LoopInstant.nanoseconds(of: timeouts.request)
            idleKeepAlive = LoopInstant.nanoseconds(of: timeouts.idleKeepAlive)
            write = LoopInstant.nanoseconds(of: timeouts.write)
        }
    }

    private let timeouts: Timeouts
    /// The current state.
    private(set) var state: State
    /// When the current phase times out; `nil` while the handler works.
    private(set) var phaseDeadline: LoopInstant?
    /// When a blocked write times out; `nil` when nothing is waiting to be written.
    private(set) var writeDeadline: LoopInstant?
    /// `false` once the current request asked to close, or the server is shutting down.
    private(set) var keepAlive = true
    /// `true` once the server asked this connection to finish.
    private(set) var isDraining = false
    /// When the request being read must be complete (head and body); `nil` between requests.
    private(set) var requestDeadline: LoopInstant?
    /// When the connection last became idle (opened, or its last response was sent).
    private(set) var idleSince: LoopInstant
    /// `true` while the response going out is a stream (Server-Sent Events).
    private(set) var isStreaming = false

    /// A new connection, opened at `now`; its first request head is due within `headerRead`.
    init(timeouts: Timeouts, now: LoopInstant) {
        self.timeouts = timeouts
        self.state = .waitingForRequest(first: true)
        self.phaseDeadline = now.advanced(byNanoseconds: timeouts.headerRead)
        self.idleSince = now
    }

    /// `true` while no request is in progress: nothing received of the next one and nothing
    /// being answered. Such a connection may be closed to make room for a new one.
    var isIdle: Bool {
        if case .waitingForRequest = state { return writeDeadline == nil }
        return false
    }

    /// The earlier of the phase and write deadlines.
    var deadline: LoopInstant? {
        switch (phaseDeadline, writeDeadline) {
        case let (phase?, write?): min(phase, write)
        case let (phase, write): phase ?? write
        }
    }

    /// Bytes arrived at `now`: starts the head and request deadlines on the first byte of a
    /// request and extends the body deadline while a body makes progress (never past the
    /// request deadline).
    mutating func bytesReceived(now: LoopInstant) {
        switch state {
        case .waitingForRequest(let first):
            state = .readingHead
            requestDeadline = now.advanced(byNanoseconds: timeouts.request)
            let headDeadline = now.advanced(byNanoseconds: timeouts.headerRead)
            phaseDeadline = capped(first ? (phaseDeadline ?? headDeadline) : headDeadline)
        case .readingBody:
            phaseDeadline = capped(now.advanced(byNanoseconds: timeouts.bodyRead))
        case .readingHead, .responding, .closing, .closed:
            break
        }
    }

    /// `deadline`, or the request deadline when that comes first.
    private func capped(_ deadline: LoopInstant) -> LoopInstant {
        guard let requestDeadline else { return deadline }
        return min(deadline, requestDeadline)
    }

    /// The head of a request whose body is still to come was parsed.
    mutating func headReceived(expectsContinue: Bool, now: LoopInstant) -> Action {
        switch state {
        case .waitingForRequest, .readingHead:
            state = .readingBody
            phaseDeadline = capped(now.advanced(byNanoseconds: timeouts.bodyRead))
            return expectsContinue ? .sendContinue : .none
        case .readingBody, .responding, .closing, .closed:
            return .none
        }
    }

    /// A whole request was parsed; it goes to the handler. `keepAlive` is what the request asked
    /// for (HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`).
    mutating func requestReceived(keepAlive: Bool) {
        guard state != .closing, state != .closed else { return }
        state = .responding
        phaseDeadline = nil
        requestDeadline = nil
        self.keepAlive = keepAlive && !isDraining
    }

    /// The response going out is a stream: the connection is busy until it ends, but may be
    /// closed to make room when no idle connection is left.
    mutating func streamStarted() {
        guard state == .responding else { return }
        isStreaming = true
    }

    /// The parser rejected the input: answer `status` and close.
    mutating func parseFailed(status: Int) -> Action {
        guard state != .closing, state != .closed else { return .none }
        state = .closing
        phaseDeadline = nil
        requestDeadline = nil
        keepAlive = false
        return .sendErrorAndClose(status: status)
    }

    /// The whole response was handed to the writer (a stream: it ended).
    mutating func responseSent(now: LoopInstant) -> Action {
        guard state == .responding else { return state == .closing ? .closeAfterFlush : .none }
        isStreaming = false
        guard keepAlive && !isDraining else {
            state = .closing
            return .closeAfterFlush
        }
        state = .waitingForRequest(first: false)
        phaseDeadline = now.advanced(byNanoseconds: timeouts.idleKeepAlive)
        idleSince = now
        return .readNextRequest
    }

    /// A write could not finish, or made progress while still blocked: it must progress again
    /// within `write`.
    mutating func writeBlocked(now: LoopInstant) {
        writeDeadline = now.advanced(byNanoseconds: timeouts.write)
    }

    /// A blocked write must also be done by `instant` (a stream that fell behind has a lag limit).
    mutating func capWriteDeadline(at instant: LoopInstant) {
        writeDeadline = min(writeDeadline ?? instant, instant)
    }

    /// Everything queued was written.
    mutating func writeDrained() {
        writeDeadline = nil
    }

    /// Time passed: the action for any deadline at or before `now`.
    mutating func timeout(now: LoopInstant) -> Action {
        if let writeDeadline, writeDeadline <= now { return closeNow() }
        guard let phaseDeadline, phaseDeadline <= now else { return .none }
        switch state {
        case .readingHead:
            return parseFailed(status: 408)
        case .waitingForRequest, .readingBody:
            return closeNow()
        case .responding, .closing, .closed:
            return .none
        }
    }

    /// The peer closed or reset the connection.
    mutating func peerClosed() -> Action { closeNow() }

    /// The server is shutting down: an idle connection closes now; one with a request in
    /// progress finishes it, answers with `Connection: close`, then closes.
    mutating func shutdown() -> Action {
        isDraining = true
        switch state {
        case .waitingForRequest: return closeNow()
        case .readingHead, .readingBody, .responding: keepAlive = false; return .none
        case .closing, .closed: return .none
        }
    }

    private mutating func closeNow() -> Action {
        guard state != .closed else { return .none }
        state = .closed
        phaseDeadline = nil
        writeDeadline = nil
        requestDeadline = nil
        return .close
    }
}
