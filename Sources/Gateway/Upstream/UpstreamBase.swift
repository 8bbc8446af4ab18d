import Foundation

/// The parts of a service's base URL that every call needs: where to connect and through which
/// transport, and the path and query that prefix each call's target. An object: every call takes
/// it from the service's cache, which is then one reference counted, not one per part.
final class UpstreamBase: Sendable {
    /// The URL these parts come from.
    let url: URL
    /// Where the upstream listens.
    let endpoint: UpstreamEndpoint
    /// The `Host` field of every call (``UpstreamEndpoint/hostHeader``).
    let hostHeader: String
    /// The base path, percent-encoded as in the URL.
    let path: String
    /// The base query, percent-encoded, if any.
    let query: String?
    /// The transport carrying the calls to ``endpoint`` (``Transport/carrier(for:)``).
    let carrier: any Transport
    /// `carrier` by its type when it is the HTTP/1.1 client (as for every `http://` base): a call
    /// through `any Transport` costs the calling task a switch of executor on its return.
    let http1Carrier: HTTP1Transport?

    /// The parts of `url`, called through `transport`; `nil` unless it is an `http://` or
    /// `https://` URL with a host.
    init?(url: URL, transport: any Transport) {
        guard let endpoint = UpstreamEndpoint(url: url),
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return nil }
        self.url = url
        self.endpoint = endpoint
        self.carrier = transport.carrier(for: endpoint)
        self.http1Carrier = carrier as? HTTP1Transport
        self.hostHeader = endpoint.hostHeader
        self.path = components.percentEncodedPath
        self.query = components.percentEncodedQuery
    }
}
