import HTTP1
import Sockets

/// The transport for `http://` upstreams: our own HTTP/1.1 client (`HTTP1.HTTPClient`), with a
/// keep-alive connection pool per `host:port` and connect / first-byte / total timeouts.
public struct HTTP1Transport: Transport {
    /// The pooled client carrying the calls.
    public let client: HTTPClient
    /// The client's destination of the endpoint this transport was made for (``carrier(for:)``):
    /// calls to it skip looking it up by `host:port`.
    private let destination: HTTPClient.Destination?

    /// Creates a transport over `client` (by default one with its own pool and event loop).
    public init(client: HTTPClient = HTTPClient()) {
        self.client = client
        destination = nil
    }

    private init(client: HTTPClient, destination: HTTPClient.Destination) {
        self.client = client
        self.destination = destination
    }

    /// Sends `request` over a pooled connection to `endpoint`.
    /// - Throws: ``TransportError``; `CancellationError` when the task was cancelled.
    public func send(_ request: HTTPRequest, to endpoint: UpstreamEndpoint, timeouts: UpstreamTimeouts) async throws
        -> HTTPResponse
    {
        do {
            return try await client.send(
                request, to: destination(of: endpoint), timeouts: Self.clientTimeouts(timeouts))
        } catch let error as HTTPClientError {
            throw Self.transportError(error, endpoint: endpoint)
        }
    }

    /// ``send(_:to:timeouts:)`` from `loop`'s thread without a task: `completion` gets the answer
    /// (with its field lines as received, see ``HTTP1/HTTPResponse/fieldLines``) or the client's
    /// error as it is (``transportResult(_:endpoint:)`` makes it a ``TransportError``;
    /// `CancellationError` once the call is cancelled) on the loop, possibly before this method
    /// returns. (Not mapped here: a closure around `completion` would be made and destroyed per call.)
    /// - Returns: The call, to cancel it.
    func send(
        _ request: HTTPRequest, to endpoint: UpstreamEndpoint, timeouts: UpstreamTimeouts, on loop: EventLoop,
        completion: @escaping (Result<HTTPResponse, any Error>) -> Void
    ) -> HTTPClientCall {
        client.send(
            request, to: destination(of: endpoint), timeouts: Self.clientTimeouts(timeouts), keepingFieldLines: true,
            on: loop, completion: completion)
    }

    /// ``send(_:to:timeouts:on:completion:)`` of a request serialized already (see
    /// ``HTTP1/HTTPClient/send(serialized:method:keepsAlive:to:timeouts:keepingFieldLines:on:completion:)``).
    /// - Returns: The call, to cancel it.
    func send(
        serialized request: [UInt8], method: HTTPMethod, keepsAlive: Bool, to endpoint: UpstreamEndpoint,
        timeouts: UpstreamTimeouts, on loop: EventLoop, completion: @escaping (Result<HTTPResponse, any Error>) -> Void
    ) -> HTTPClientCall {
        client.send(
            serialized: request, method: method, keepsAlive: keepsAlive, to: destination(of: endpoint),
            timeouts: Self.clientTimeouts(timeouts), keepingFieldLines: true, on: loop, completion: completion)
    }

    /// `result` with a client's error as a ``TransportError`` of `endpoint`.
    static func transportResult(_ result: Result<HTTPResponse, any Error>, endpoint: UpstreamEndpoint)
        -> Result<HTTPResponse, any Error>
    {
        result.mapError { error in (error as? HTTPClientError).map { transportError($0, endpoint: endpoint) } ?? error }
    }

    /// The client's destination for `endpoint`: the one this transport was made for, when it is.
    private func destination(of endpoint: UpstreamEndpoint) -> HTTPClient.Destination {
        if let destination, destination.port == endpoint.port, destination.host == endpoint.host {
            destination
        } else {
            client.destination(host: endpoint.host, port: endpoint.port)
        }
    }

    /// The client's timeouts for `timeouts`.
    private static func clientTimeouts(_ timeouts: UpstreamTimeouts) -> HTTPClient.Timeouts {
        HTTPClient.Timeouts(
            connectNanoseconds: nanoseconds(timeouts.connect), firstByteNanoseconds: nanoseconds(timeouts.firstByte),
            totalNanoseconds: nanoseconds(timeouts.total))
    }

    /// This transport bound to the client's destination for `endpoint` (looked up once here).
    public func carrier(for endpoint: UpstreamEndpoint) -> any Transport {
        HTTP1Transport(client: client, destination: client.destination(host: endpoint.host, port: endpoint.port))
    }

    /// `seconds` in whole nanoseconds (no `Duration`: `Duration.seconds(_: Double)` converts
    /// through 128-bit arithmetic that costs more than the rest of a call's set-up).
    private static func nanoseconds(_ seconds: Double) -> Int64 {
        Int64((seconds * 1e9).rounded())
    }

    /// Maps a client error. Its message names only `host:port`; the code goes into the details.
    private static func transportError(_ error: HTTPClientError, endpoint: UpstreamEndpoint) -> TransportError {
        var details = ["endpoint": endpoint.description, "client_error": error.code]
        switch error.kind {
        case .connectRefused, .connectFailed:
            return TransportError(.refused, "Cannot connect to \(endpoint)", details: details)
        case .timeout(let phase):
            details["phase"] = phase.rawValue
            return TransportError(.timeout, "\(endpoint) did not answer in time", details: details)
        case .malformedResponse:
            // Includes an answer followed by bytes nobody asked for (`bytes_after_message`): never stored.
            if let parseError = error.underlying as? HTTPParseError { details["parse_error"] = parseError.code.rawValue }
            return TransportError(.malformedResponse, "\(endpoint) sent a malformed answer", details: details)
        case .connectionClosed:
            return TransportError(.failed, "\(endpoint) closed the connection mid-answer", details: details)
        case .overBudget:
            return TransportError(
                .overBudget, "The answer from \(endpoint) does not fit in the in-flight body budget now",
                details: details)
        }
    }
}
