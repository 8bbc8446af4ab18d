import RDS

/// The link of an error chain that decides the HTTP status of a problem answer, with that status
/// and its title.
///
/// The first link that names a cause decides: 404 upstream not found, 502 bad upstream answer,
/// 503 unavailable (or no upstream credential, or the caller cancelled), 504 timeout or fetch
/// deadline, the upstream's own 4xx when it rejected the request, and the gateway's own refusals
/// with their status. A chain without such a link is a 500 whose cause is its innermost link (the
/// root of the failure).
struct ProblemCause: Sendable {
    /// The HTTP status answered.
    let status: Int
    /// The short summary of the problem type.
    let title: String
    /// The deciding link: its code names the problem type, its message is the problem's detail.
    let link: ErrorLink

    /// Finds the cause in the chain of `error`.
    init(_ error: any Error) {
        let links = ErrorChain(error).links
        if let refusal = error as? GatewayError, let head = links.first {
            (status, title, link) = (refusal.kind.status, Self.title(refusal.kind.status), head)
            return
        }
        if let busy = links.first(where: { $0.code == TransportErrorKind.overBudget.rawValue }) {
            (status, title, link) = (503, "Gateway busy", busy)
            return
        }
        for candidate in links {
            if let (status, title) = Self.decision(for: candidate) {
                (self.status, self.title, link) = (status, title, candidate)
                return
            }
        }
        (status, title) = (500, "Internal error")
        link = links.last ?? ErrorLink(code: "unexpected", message: "Internal error")
    }

    /// The status and title `link` decides, or `nil` when it names no cause.
    private static func decision(for link: ErrorLink) -> (Int, String)? {
        switch link.code {
        case ServiceError.Kind.notFound.rawValue: return (404, "Upstream resource not found")
        case ServiceError.Kind.badResponse.rawValue: return (502, "Bad upstream answer")
        case ServiceError.Kind.unavailable.rawValue: return (503, "Upstream unavailable")
        case ServiceError.Kind.authFailed.rawValue: return (503, "Upstream authentication failed")
        case ServiceError.Kind.timeout.rawValue, RepositoryError.Kind.deadlineExceeded.rawValue:
            return (504, "Upstream timed out")
        case ServiceError.Kind.rejected.rawValue:
            let status = link.details["status"].flatMap(Int.init).flatMap { (400...499).contains($0) ? $0 : nil }
            return (status ?? 502, "Upstream rejected the request")
        case "cancelled": return (503, "Request cancelled")
        case RepositoryError.Kind.fetchCancelled.rawValue: return (503, "Fetch cancelled")
        case "outbox_full": return (503, "Write queue full")
        default: return nil
        }
    }

    private static func title(_ status: Int) -> String {
        switch status {
        case 400: "Bad request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not found"
        case 405: "Method not allowed"
        case 409: "Conflict"
        case 422: "Unprocessable content"
        default: "Error"
        }
    }
}
