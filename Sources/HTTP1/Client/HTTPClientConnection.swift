import Dispatch
import Glibc
import Synchronization

/// One client connection to an upstream, doing its I/O on an event loop: non-blocking socket,
/// dispatch sources for readiness, deadlines as loop timers. Bridged to `async` callers with a
/// continuation per operation (connect, exchange).
///
/// Its mutable state is confined to `loop.queue`; hence `@unchecked Sendable`. One caller uses
/// it at a time (the pool hands it out exclusively).
final class HTTPClientConnection: @unchecked Sendable {
    /// The socket; closed once both sources are cancelled.
    let socket: Socket
    /// `host:port`, for messages.
    let endpoint: String
    private let loop: EventLoop
    private let readSource: any DispatchSourceRead
    private let writeSource: any DispatchSourceWrite
    private var isReading = false
    private var isWriting = false
    private var openSources = 2
    private(set) var isClosed = false

    /// The operation in progress: its id, and the continuation of a connect or an exchange.
    private var operationID = 0
    private var connecting: CheckedContinuation<Void, any Error>?
    private var exchanging: CheckedContinuation<(HTTPResponse, reusable: Bool), any Error>?
    private var exchange: HTTPClientExchange?
    /// An operation cancelled before it reached the loop.
    private var cancelledID: Int?
    private static let nextID = Atomic<Int>(1)

    private init(socket: Socket, endpoint: String, loop: EventLoop) {
        self.socket = socket
        self.endpoint = endpoint
        self.loop = loop
        readSource = DispatchSource.makeReadSource(fileDescriptor: socket.fd, queue: loop.queue)
        writeSource = DispatchSource.makeWriteSource(fileDescriptor: socket.fd, queue: loop.queue)
        readSource.setEventHandler { [unowned self] in readAvailable() }
        writeSource.setEventHandler { [unowned self] in writable() }
        readSource.setCancelHandler { [self] in sourceCancelled() }
        writeSource.setCancelHandler { [self] in sourceCancelled() }
    }

    /// Connects to `address` within `deadline`.
    /// - Throws: `HTTPClientError` (`connectRefused`, `connectFailed`, `timeout(.connect)`), or
    ///   `CancellationError`.
    static func connect(
        to address: SocketAddress, endpoint: String, loop: EventLoop, deadline: ContinuousClock.Instant,
        phase: HTTPClientError.Phase
    ) async throws -> HTTPClientConnection {
        let started: (socket: Socket, isConnected: Bool)
        do {
            started = try Socket.connect(to: address)
        } catch let error as SocketError {
            throw HTTPClientConnection.connectError(error.code, endpoint: endpoint, underlying: error)
        }
        let connection = HTTPClientConnection(socket: started.socket, endpoint: endpoint, loop: loop)
        if started.isConnected { return connection }
        try await connection.perform { id, continuation in
            connection.connecting = continuation
            connection.setWriting(true)
            connection.failAfter(
                deadline, id: id, HTTPClientError(.timeout(phase), "Connecting to \(endpoint) timed out."))
        }
        return connection
    }

    /// Sends `exchange`'s request and reads its response, within the deadlines.
    /// - Throws: `HTTPClientError` or `CancellationError`; the connection is closed then.
    func send(
        _ exchange: HTTPClientExchange, firstByteDeadline: ContinuousClock.Instant,
        totalDeadline: ContinuousClock.Instant
    ) async throws -> (HTTPResponse, reusable: Bool) {
        try await perform { [self] id, continuation in
            exchanging = continuation
            self.exchange = exchange
            failAfter(totalDeadline, id: id, HTTPClientError(.timeout(.total), "The call to \(endpoint) timed out."))
            failAfter(
                firstByteDeadline, id: id, HTTPClientError(.timeout(.firstByte), "\(endpoint) did not answer in time.")
            ) {
                $0.exchange?.hasReceivedBytes == false
            }
            setReading(true)
            writable()
        }
    }

    /// Closes the connection (from any thread); an operation in progress fails with `error`.
    func close(failing error: any Error = CancellationError()) {
        loop.execute { [self] in fail(error) }
    }

    // MARK: Operations

    /// Runs one operation: `begin` starts it on the loop and stores the continuation; cancelling
    /// the calling task fails it with `CancellationError` and closes the connection.
    private func perform<Result>(
        _ begin: @escaping @Sendable (Int, CheckedContinuation<Result, any Error>) -> Void
    ) async throws -> Result {
        let id = Self.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                loop.execute { [self] in
                    guard !isClosed, cancelledID != id else {
                        continuation.resume(throwing: isClosed ? closedError(afterBytes: false) : CancellationError())
                        return fail(CancellationError())
                    }
                    operationID = id
                    begin(id, continuation)
                }
            }
        } onCancel: {
            loop.execute { [self] in
                if operationID == id { fail(CancellationError()) } else { cancelledID = id }
            }
        }
    }

    /// Fails operation `id` with `error` at `deadline` if it is still running and `applies`.
    private func failAfter(
        _ deadline: ContinuousClock.Instant, id: Int, _ error: HTTPClientError,
        when applies: @escaping @Sendable (HTTPClientConnection) -> Bool = { _ in true }
    ) {
        let delay = ContinuousClock.now.duration(to: deadline)
        let nanoseconds = max(
            0, Int(delay.components.seconds) * 1_000_000_000 + Int(delay.components.attoseconds / 1_000_000_000))
        loop.queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
            guard operationID == id, connecting != nil || exchanging != nil, applies(self) else { return }
            fail(error)
        }
    }

    /// Ends the operation in progress with `error` (if any) and closes the connection.
    private func fail(_ error: any Error) {
        operationID = 0
        exchange = nil
        connecting?.resume(throwing: error)
        connecting = nil
        exchanging?.resume(throwing: error)
        exchanging = nil
        guard !isClosed else { return }
        isClosed = true
        if !isReading { readSource.resume() }
        if !isWriting { writeSource.resume() }
        readSource.cancel()
        writeSource.cancel()
    }

    private func sourceCancelled() {
        openSources -= 1
        if openSources == 0 { socket.close() }
    }

    // MARK: Readiness

    private func writable() {
        if connecting != nil { return connected() }
        while let exchange, !exchange.isSent {
            let result = exchange.outbound.withUnsafeBytes {
                socket.send(UnsafeRawBufferPointer(rebasing: $0[exchange.sent...]))
            }
            switch result {
            case .sent(let count):
                self.exchange?.sent += count
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
        let continuation = connecting
        connecting = nil
        operationID = 0
        setWriting(false)
        continuation?.resume()
    }

    private func readAvailable() {
        guard exchange != nil else { return setReading(false) }
        let buffer = loop.readBuffer
        var endOfStream = false
        reading: while true {
            switch socket.read(into: buffer) {
            case .bytes(let count):
                exchange?.received(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                if count < buffer.count { break reading }
            case .wouldBlock:
                break reading
            case .closed:
                endOfStream = true
                break reading
            case .failed(let code):
                return fail(closedError(afterBytes: exchange?.hasReceivedBytes ?? false, code: code))
            }
        }
        switch exchange?.step(endOfStream: endOfStream) {
        case .needMore, nil:
            return
        case .malformed(let error):
            fail(HTTPClientError(.malformedResponse, "\(endpoint) sent an invalid response.", underlying: error))
        case .closedEarly:
            fail(closedError(afterBytes: exchange?.hasReceivedBytes ?? false))
        case .response(let response, let reusable):
            let sentAll = exchange?.isSent ?? false
            let continuation = exchanging
            exchanging = nil
            exchange = nil
            operationID = 0
            setReading(false)
            setWriting(false)
            continuation?.resume(returning: (response, reusable && sentAll))
        }
    }

    private func setReading(_ on: Bool) {
        guard on != isReading, !isClosed else { return }
        isReading = on
        if on { readSource.resume() } else { readSource.suspend() }
    }

    private func setWriting(_ on: Bool) {
        guard on != isWriting, !isClosed else { return }
        isWriting = on
        if on { writeSource.resume() } else { writeSource.suspend() }
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
