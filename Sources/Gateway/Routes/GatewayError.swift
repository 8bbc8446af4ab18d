import RDS

/// A request the gateway itself turns down, before any repository is involved. It wraps nothing.
public typealias GatewayError = LayerError<GatewayErrorKind>

/// What was wrong with the request (``GatewayError``'s `Kind`); each kind has its HTTP status.
public enum GatewayErrorKind: String, Sendable {
    /// No route matches the path (404).
    case routeNotFound = "route_not_found"
    /// The route exists but not for this method (405).
    case methodNotAllowed = "method_not_allowed"
    /// A captured path segment is `.` or `..`, or holds an encoded `/`, `\` or NUL (400).
    case pathTraversal = "path_traversal"
    /// A malformed query or body (400).
    case badRequest = "bad_request"
    /// The admin endpoints need the bearer token (401).
    case unauthorized = "admin_unauthorized"
    /// The admin endpoints answer loopback clients only (403).
    case forbidden = "admin_forbidden"
    /// The demo knobs answer loopback clients and admin callers only (403).
    case demoForbidden = "demo_forbidden"
    /// No repository by that name (404).
    case repositoryNotFound = "repository_not_found"
    /// A configuration reload was refused: the file is invalid, or reloading is not set up (422).
    case reloadFailed = "reload_failed"
    /// The client said `only-if-cached` and nothing usable is stored (504, RFC 9111 §5.2.1.7).
    case notCached = "not_cached"
    /// A write with this `Idempotency-Key` and the same request is still being processed (409).
    case idempotencyInFlight = "idempotency_key_in_flight"
    /// An `Idempotency-Key` already used for a different request (422).
    case idempotencyMismatch = "idempotency_key_mismatch"
    /// The resource has a delete queued in the outbox (404).
    case pendingDelete = "pending_delete"
    /// No queued write by that id (404).
    case writeNotFound = "write_not_found"
    /// A webhook request without a valid signature, or with a timestamp outside the window (401).
    case hookUnauthorized = "hook_unauthorized"

    /// The HTTP status answered for this kind.
    public var status: Int {
        switch self {
        case .routeNotFound, .repositoryNotFound, .pendingDelete, .writeNotFound: 404
        case .methodNotAllowed: 405
        case .pathTraversal, .badRequest: 400
        case .unauthorized, .hookUnauthorized: 401
        case .forbidden, .demoForbidden: 403
        case .idempotencyInFlight: 409
        case .reloadFailed, .idempotencyMismatch: 422
        case .notCached: 504
        }
    }
}
