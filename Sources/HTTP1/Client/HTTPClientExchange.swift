import Sockets

/// One request/response exchange on a client connection, without I/O: the bytes to send, the
/// bytes received, and what they amount to. Interim 1xx answers (but 101) are skipped.
///
/// A class: the connection reads and updates it on every event, which for a struct of this size
/// meant a copy (and its destruction) of every field at each look. Used by one connection at a
/// time, on its loop's thread; hence `@unchecked Sendable`.
final class HTTPClientExchange: @unchecked Sendable {
    /// What the received bytes amount to.
    enum Step: Sendable {
        /// Wait for more bytes.
        case needMore
        /// The final response; `reusable` when the connection may carry another exchange.
        case response(HTTPResponse, reusable: Bool)
        /// The bytes are not a valid response.
        case malformed(HTTPParseError)
        /// The stream ended before the response was complete.
        case closedEarly
        /// Holding the response would go over the client's body budget.
        case overBudget
    }

    /// The request's bytes.
    let outbound: [UInt8]
    /// How many of them the socket has taken.
    var sent = 0
    /// Whether any byte of the answer has arrived (the first-byte timeout stops then).
    private(set) var hasReceivedBytes = false
    private var parser: HTTPResponseParser
    private var inbound: [UInt8] = []
    private let requestKeepsAlive: Bool
    /// The request's method.
    let requestMethod: HTTPMethod
    private let limits: HTTPParserLimits
    private let keepsFieldLines: Bool
    /// Counts `inbound` against the process's budget; gives it back at ``end()``.
    private let lease: HTTPBodyBudget.Lease?
    private var isOverBudget = false
    private var isSized = false
    /// When the whole call must be over: `timeouts.totalNanoseconds` after the exchange was made (a retry
    /// keeps it), on the loop's clock. The call's instants are kept here, not in the async
    /// functions carrying the exchange (each instant an async frame holds is a slot of the task's
    /// allocator).
    let totalDeadline: LoopInstant
    /// The call's timeouts.
    let timeouts: HTTPClient.Timeouts

    /// An exchange sending `request` (serialized for `host` and `port`), holding what it receives
    /// within `budget`, its call bounded by `timeouts` from now; its response keeps its field
    /// lines when `keepingFieldLines` (see ``HTTPResponseParser/init(requestMethod:limits:keepingFieldLines:)``).
    convenience init(
        _ request: HTTPRequest, host: String, port: Int, limits: HTTPParserLimits, budget: HTTPBodyBudget? = nil,
        timeouts: HTTPClient.Timeouts, keepingFieldLines: Bool = false
    ) {
        self.init(
            serialized: HTTPSerializer.request(request, host: host, port: port), method: request.method,
            keepsAlive: request.headers.connectionKeepsAlive(version: .http1_1), limits: limits, budget: budget,
            timeouts: timeouts, keepingFieldLines: keepingFieldLines)
    }

    /// An exchange sending a request serialized already (`outbound`, of `method`, asking to keep
    /// the connection when `keepsAlive`), otherwise as ``init(_:host:port:limits:budget:timeouts:keepingFieldLines:)``.
    init(
        serialized outbound: [UInt8], method: HTTPMethod, keepsAlive: Bool, limits: HTTPParserLimits,
        budget: HTTPBodyBudget? = nil, timeouts: HTTPClient.Timeouts, keepingFieldLines: Bool = false
    ) {
        self.outbound = outbound
        requestMethod = method
        self.limits = limits
        self.keepsFieldLines = keepingFieldLines
        parser = HTTPResponseParser(requestMethod: method, limits: limits, keepingFieldLines: keepingFieldLines)
        requestKeepsAlive = keepsAlive
        lease = budget.map(HTTPBodyBudget.Lease.init)
        totalDeadline = LoopInstant.now.advanced(byNanoseconds: timeouts.totalNanoseconds)
        self.timeouts = timeouts
    }

    /// The same request from its start, on another connection, within the same total deadline
    /// and body budget (nothing of `first`'s answer arrived).
    private init(retrying first: HTTPClientExchange) {
        outbound = first.outbound
        requestMethod = first.requestMethod
        limits = first.limits
        keepsFieldLines = first.keepsFieldLines
        parser = HTTPResponseParser(
            requestMethod: first.requestMethod, limits: first.limits, keepingFieldLines: first.keepsFieldLines)
        requestKeepsAlive = first.requestKeepsAlive
        lease = first.lease
        totalDeadline = first.totalDeadline
        timeouts = first.timeouts
    }

    /// Gives back the bytes the exchange holds against the budget: its call has ended (the call
    /// keeps the exchange, and may outlive its completion on the loop, so letting go of it would be late).
    func end() { lease?.release() }

    /// This exchange again from its start (see ``init(retrying:)``).
    func retry() -> HTTPClientExchange { HTTPClientExchange(retrying: self) }

    /// When the answer's first byte must have arrived, for a request starting to go out now.
    func firstByteDeadline() -> LoopInstant {
        min(LoopInstant.now.advanced(byNanoseconds: timeouts.firstByteNanoseconds), totalDeadline)
    }

    /// The deadline of connecting for this exchange now, and the phase a timeout at it reports.
    func connectDeadline() -> (instant: LoopInstant, phase: HTTPClientError.Phase) {
        let connect = LoopInstant.now.advanced(byNanoseconds: timeouts.connectNanoseconds)
        return connect <= totalDeadline ? (connect, .connect) : (totalDeadline, .total)
    }

    /// `true` once every request byte is sent.
    var isSent: Bool { sent == outbound.count }

    /// Takes bytes just read and parses what has arrived: where they lie when nothing is
    /// buffered, so an answer read whole is never copied into `inbound` (only bytes left after a
    /// message or before its end are kept); else after the buffered bytes.
    func step(reading bytes: UnsafeRawBufferPointer) -> Step {
        hasReceivedBytes = true
        guard inbound.isEmpty, !isOverBudget else {
            keep(bytes)
            return step(endOfStream: false)
        }
        guard lease?.hold(bytes.count) != false else {
            isOverBudget = true
            return .overBudget
        }
        switch parser.parse(bytes, endOfStream: false) {
        case .incomplete:
            keep(bytes)
            reserveAnnouncedLength()
            return isOverBudget ? .overBudget : .needMore
        case .invalid(let error):
            return .malformed(error)
        case .complete(let response, let consumed):
            if consumed < bytes.count { keep(UnsafeRawBufferPointer(rebasing: bytes[consumed...])) }
            return finished(response, endOfStream: false) ?? step(endOfStream: false)
        }
    }

    /// Buffers received bytes.
    private func keep(_ bytes: UnsafeRawBufferPointer) {
        inbound.append(contentsOf: bytes)
        if lease?.hold(inbound.capacity) == false { isOverBudget = true }
    }

    /// Once the head announces a `Content-Length`: holds (and allocates) room for the whole
    /// answer at once, so it is refused before its body arrives and the buffer never regrows.
    private func reserveAnnouncedLength() {
        guard !isSized, let length = parser.announcedBodyLength else { return }
        isSized = true
        let total = inbound.count + length
        guard lease?.hold(total) != false else { return isOverBudget = true }
        inbound.reserveCapacity(total)
    }

    /// Parses what has arrived; `endOfStream` once the peer has closed.
    func step(endOfStream: Bool) -> Step {
        while true {
            if isOverBudget { return .overBudget }
            switch inbound.withUnsafeBytes({ parser.parse($0, endOfStream: endOfStream) }) {
            case .incomplete:
                reserveAnnouncedLength()
                if isOverBudget { return .overBudget }
                return endOfStream ? .closedEarly : .needMore
            case .invalid(let error):
                return .malformed(error)
            case .complete(let response, let consumed):
                inbound.removeFirst(consumed)
                if let step = finished(response, endOfStream: endOfStream) { return step }
            }
        }
    }

    /// What a whole message makes of the exchange, `inbound` holding the bytes after it: `nil`
    /// for an interim answer (the final one follows).
    private func finished(_ response: HTTPResponse, endOfStream: Bool) -> Step? {
        if (100..<200).contains(response.status) && response.status != 101 { return nil }
        // Bytes past the end of the answer: its framing was wrong (a short Content-Length,
        // a body on a HEAD, 204 or 304 answer) or the upstream sent an answer nobody asked
        // for. Either way this answer cannot be trusted, nor the connection.
        guard inbound.isEmpty || response.status == 101 else { return .malformed(.bytesAfterMessage) }
        let reusable =
            requestKeepsAlive && !endOfStream && response.status != 101
            && response.headers.connectionKeepsAlive(version: parser.version ?? .http1_1)
        return .response(response, reusable: reusable)
    }
}
