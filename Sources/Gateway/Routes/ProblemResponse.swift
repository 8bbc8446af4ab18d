import HTTP1
import RDS

/// Turns errors into `application/problem+json` responses, choosing the status by cause.
enum ProblemResponse {
    /// The status and title for an error chain: the first link that names a cause decides
    /// (404 upstream not found, 502 bad upstream answer, 503 unavailable, 504 timeout, the
    /// upstream's own 4xx when it rejected the request, the gateway's own refusals), else 500.
    static func status(for error: any Error) -> (status: Int, title: String) {
        if let refusal = error as? GatewayError { return (refusal.kind.status, title(refusal.kind.status)) }
        for link in ErrorChain(error).links {
            switch link.code {
            case ServiceError.Kind.notFound.rawValue: return (404, "Upstream resource not found")
            case ServiceError.Kind.badResponse.rawValue: return (502, "Bad upstream answer")
            case ServiceError.Kind.unavailable.rawValue: return (503, "Upstream unavailable")
            case ServiceError.Kind.timeout.rawValue, RepositoryError.Kind.deadlineExceeded.rawValue:
                return (504, "Upstream timed out")
            case ServiceError.Kind.rejected.rawValue:
                let status = link.details["status"].flatMap(Int.init).flatMap { (400...499).contains($0) ? $0 : nil }
                return (status ?? 502, "Upstream rejected the request")
            case "cancelled": return (503, "Request cancelled")
            default: continue
            }
        }
        return (500, "Internal error")
    }

    /// The problem response for `error` on `path`.
    static func make(_ error: any Error, path: Substring, repository: String? = nil, headers: HTTPHeaders = [:])
        -> HTTPResponse
    {
        let (status, title) = status(for: error)
        let problem = ProblemDetails(
            error: error, status: status, title: title, instance: String(path), repository: repository)
        var headers = headers
        headers["Content-Type"] = "application/problem+json"
        headers["Cache-Control"] = "no-store"
        return HTTPResponse(status: status, headers: headers, bytes: problem.jsonBytes())
    }

    /// The code `X-Resource-Error` reports: the first upstream code of the chain, else the outermost.
    static func resourceErrorCode(_ error: any Error) -> String {
        let links = ErrorChain(error).links
        return (links.first { $0.code.hasPrefix("upstream_") } ?? links.first)?.code ?? "unexpected"
    }

    private static func title(_ status: Int) -> String {
        switch status {
        case 400: "Bad request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not found"
        case 405: "Method not allowed"
        default: "Error"
        }
    }
}
