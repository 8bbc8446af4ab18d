import Sockets

/// One call of an ``HTTPClient``, on one event loop: it takes a pooled connection of that loop
/// (or makes one), sends the request, retries an idempotent request once on a new connection
/// when a reused one turns out closed before any byte of the answer, and ends with its
/// completion, called once on the loop. Both of the client's `send` methods run one: the
/// callback form hands it back (to ``cancel()`` it), the `async` form awaits it.
///
/// Confined to its loop's thread; hence `@unchecked Sendable`.
public final class HTTPClientCall: @unchecked Sendable {
    /// How a call ends: the whole response (its body as `.bytes`), or `HTTPClientError`, or
    /// `CancellationError` when it was cancelled.
    public typealias Completion = (Result<HTTPResponse, any Error>) -> Void

    private let client: HTTPClient
    private let destination: HTTPClient.Destination
    /// The loop carrying the call.
    let loop: EventLoop
    private var exchange: HTTPClientExchange
    private let isIdempotent: Bool
    private var ending: Ending?
    /// The connection carrying the operation in progress, if any.
    private var connection: HTTPClientConnection?
    /// `true` while that connection came from the pool (a retry may then follow).
    private var isReused = false
    private var isCancelled = false

    /// Who hears how the call ended: a callback, or an `async` caller's continuation, resumed
    /// directly (no closure made around it).
    enum Ending {
        case callback(Completion)
        case resuming(UnsafeContinuation<HTTPResponse, any Error>)
    }

    init(
        client: HTTPClient, destination: HTTPClient.Destination, loop: EventLoop, exchange: HTTPClientExchange,
        isIdempotent: Bool
    ) {
        self.client = client
        self.destination = destination
        self.loop = loop
        self.exchange = exchange
        self.isIdempotent = isIdempotent
    }

    /// Starts the call (on the loop's thread), to end as `ending` says: on an idle pooled
    /// connection when there is one fit for reuse (for a request that may not be retried, one the
    /// socket confirms open), else on a new one.
    func start(ending: Ending) {
        self.ending = ending
        guard !isCancelled else { return complete(.failure(CancellationError())) }
        if let pooled = client.checkOut(destination, on: loop, probing: !isIdempotent) {
            isReused = true
            connection = pooled
            pooled.send(exchange, for: self)
        } else {
            connect()
        }
    }

    /// `true` once the started call has ended (its completion was called).
    public var isFinished: Bool { ending == nil }

    /// Gives up on the call (on the loop's thread): its completion gets `CancellationError`, and
    /// the connection carrying it is closed. Does nothing once the call has ended; a call not
    /// started yet ends so as soon as it starts.
    public func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        connection?.cancel()
    }

    /// Opens a new connection within the exchange's connect timeout and total deadline.
    private func connect() {
        isReused = false
        let opened: (connection: HTTPClientConnection, isConnected: Bool)
        do {
            opened = try HTTPClientConnection.open(
                to: try client.address(of: destination), destination: destination, loop: loop)
        } catch {
            return complete(.failure(error))
        }
        connection = opened.connection
        let deadline = exchange.connectDeadline()
        opened.connection.connect(
            isConnected: opened.isConnected, deadline: deadline.instant, phase: deadline.phase, for: self)
    }

    /// The connection's connect ended: with `error`, or ready for the exchange.
    func connected(_ error: (any Error)?) {
        guard let connection, error == nil else {
            connection = nil
            return complete(.failure(error ?? CancellationError()))
        }
        connection.send(exchange, for: self)
    }

    /// The connection's exchange ended. A reusable connection goes back to the pool; a failed one
    /// is closed already.
    func answered(_ result: Result<(HTTPResponse, reusable: Bool), any Error>) {
        let carrier = connection
        connection = nil
        switch result {
        case .success(let (response, reusable)):
            if let carrier {
                if reusable { client.checkIn(carrier) } else { carrier.close() }
            }
            complete(.success(response))
        case .failure(let error as HTTPClientError) where error.closedBeforeAnswer && isReused && isIdempotent && !isCancelled:
            // The peer dropped the idle connection as we reused it: retry once, on a new one.
            exchange = exchange.retry()
            connect()
        case .failure(let error):
            complete(.failure(error))
        }
    }

    /// Ends the call with `result`, once the exchange has given back its bytes of the body budget.
    private func complete(_ result: Result<HTTPResponse, any Error>) {
        exchange.end()
        let ending = self.ending
        self.ending = nil
        switch ending {
        case .callback(let completion): completion(result)
        case .resuming(let continuation): continuation.resume(with: result)
        case nil: break
        }
    }
}
