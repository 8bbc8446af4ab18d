import Foundation
import HTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport for `https://` upstreams (we have no TLS of our own): URLSession from
/// FoundationNetworking with every cache off (an ephemeral configuration, no `URLCache`,
/// `reloadIgnoringLocalCacheData`), no cookies and no redirects followed.
///
/// `timeouts.firstByte` is URLSession's idle timeout, `timeouts.total` bounds the whole exchange;
/// the connect phase counts against both. Also works for `http://`.
///
/// URLSession (libcurl on Linux) decodes `gzip`, `deflate`, `br` and `zstd` bodies itself but keeps
/// the `Content-Encoding` field; this transport removes that field (and the stale `Content-Length`)
/// when every coding named is one URLSession decodes, so the answer describes the bytes it carries.
/// It also sends `Accept-Language: *` and `User-Agent: rds-gateway` unless the request has its own,
/// instead of URLSession's defaults (`en`, a curl agent), so the upstream sees no preference the
/// cache key does not hold.
public final class URLSessionTransport: Transport {
    private let session: URLSession

    /// Creates a transport with its own session.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.timeoutIntervalForResource = 24 * 3_600
        session = URLSession(configuration: configuration, delegate: NoRedirectDelegate(), delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends `request` over URLSession.
    /// - Throws: ``TransportError``; `CancellationError` when the task was cancelled.
    public func send(_ request: HTTPRequest, to endpoint: UpstreamEndpoint, timeouts: UpstreamTimeouts) async throws
        -> HTTPResponse
    {
        try Task.checkCancellation()
        guard let url = URL(string: endpoint.description + request.target) else {
            throw TransportError(
                .failed, "Cannot form a URL for \(endpoint)", details: ["endpoint": endpoint.description])
        }
        var urlRequest = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: min(timeouts.firstByte, timeouts.total))
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpShouldHandleCookies = false
        for field in request.headers where field.name.lowercased() != "host" {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        for (name, value) in Self.neutralDefaults where !request.headers.contains(name) {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        let call = URLSessionCall()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    continuation.resume(
                        with: Self.result(data: data, response: response, error: error, call: call, endpoint: endpoint))
                }
                call.start(task, totalTimeout: timeouts.total)
            }
        } onCancel: {
            call.cancel(reason: .cancelled)
        }
    }

    /// Request fields set when the request has none, replacing URLSession's own defaults.
    private static let neutralDefaults = [("Accept-Language", "*"), ("User-Agent", "rds-gateway")]

    /// The content codings URLSession decodes by itself.
    private static let decodedCodings: Set<String> = ["gzip", "x-gzip", "deflate", "br", "zstd", "identity"]

    /// The response, or the transport error for what went wrong.
    private static func result(
        data: Data?, response: URLResponse?, error: (any Error)?, call: URLSessionCall, endpoint: UpstreamEndpoint
    ) -> Result<HTTPResponse, any Error> {
        let details = ["endpoint": endpoint.description]
        if let error {
            switch call.cancelReason {
            case .cancelled: return .failure(CancellationError())
            case .timedOut:
                return .failure(
                    TransportError(
                        .timeout, "\(endpoint) did not answer within the total timeout",
                        details: details.merging(["phase": "total"]) { $1 }))
            case nil: return .failure(transportError(error, endpoint: endpoint))
            }
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(TransportError(.malformedResponse, "\(endpoint) sent no HTTP answer", details: details))
        }
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers.add(name: String(describing: name), value: String(describing: value))
        }
        let codings = headers.values(for: "Content-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingWhitespace().lowercased() }
        if !codings.isEmpty, codings.allSatisfy(decodedCodings.contains) {
            headers.remove("Content-Encoding")
            headers.remove("Content-Length")
        }
        return .success(HTTPResponse(status: http.statusCode, headers: headers, bytes: Array(data ?? Data())))
    }

    /// Maps a URLError to a transport error. The URL (which may carry an API key) is never copied.
    private static func transportError(_ error: any Error, endpoint: UpstreamEndpoint) -> TransportError {
        let code = (error as? URLError)?.code
        var details = ["endpoint": endpoint.description]
        if let code { details["url_error"] = String(code.rawValue) }
        switch code {
        case .timedOut?:
            details["phase"] = "first_byte"
            return TransportError(.timeout, "\(endpoint) did not answer in time", details: details)
        case .cannotConnectToHost?, .cannotFindHost?, .dnsLookupFailed?, .notConnectedToInternet?:
            return TransportError(.refused, "Cannot connect to \(endpoint)", details: details)
        case .badServerResponse?, .cannotParseResponse?, .cannotDecodeRawData?, .cannotDecodeContentData?:
            return TransportError(.malformedResponse, "\(endpoint) sent a malformed answer", details: details)
        case .cancelled?:
            return TransportError(.cancelled, "The call to \(endpoint) was cancelled", details: details)
        default:
            return TransportError(.failed, "The exchange with \(endpoint) failed", details: details)
        }
    }
}
