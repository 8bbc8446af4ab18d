import HTTP1

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
        let clientTimeouts = HTTPClient.Timeouts(
            connectNanoseconds: Self.nanoseconds(timeouts.connect),
            firstByteNanoseconds: Self.nanoseconds(timeouts.firstByte), totalNanoseconds: Self.nanoseconds(timeouts.total))
        let destination =
            if let destination, destination.port == endpoint.port, destination.host == endpoint.host {
                destination
            } else {
                client.destination(host: endpoint.host, port: endpoint.port)
            }
        do {
            return try await client.send(request, to: destination, timeouts: clientTimeouts)
        } catch let error as HTTPClientError {
            throw Self.transportError(error, endpoint: endpoint)
        }
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
