import HTTP1
import RDS

/// Turns errors into `application/problem+json` responses, with the status chosen by cause.
enum ProblemResponse {
    /// The problem response for `error` on `path`, as ``ProblemAudience/current`` may see it; the
    /// whole chain goes to the request's log line (``RequestContext``). A failed write names its `element`.
    static func make(
        _ error: any Error, path: Substring, repository: String? = nil, headers: HTTPHeaders = [:],
        element: WrittenElement? = nil
    ) -> HTTPResponse {
        RequestContext.current?.record(ErrorChain(error))
        var problem = ProblemDetails(
            error: error, instance: String(path), repository: repository, audience: ProblemAudience.current)
        problem.element = element
        var headers = headers
        headers["Content-Type"] = "application/problem+json"
        headers["Cache-Control"] = "no-store"
        if problem.code == TransportErrorKind.overBudget.rawValue { headers["Retry-After"] = "1" }
        return HTTPResponse(status: problem.status, headers: headers, bytes: problem.jsonBytes())
    }

    /// The code `X-Resource-Error` reports: the first upstream code of the chain, else the outermost.
    static func resourceErrorCode(_ error: any Error) -> String {
        let links = ErrorChain(error).links
        return (links.first { $0.code.hasPrefix("upstream_") } ?? links.first)?.code ?? "unexpected"
    }
}
