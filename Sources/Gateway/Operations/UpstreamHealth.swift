import Foundation

/// What the gateway last saw of one upstream service, for `/health/ready`.
///
/// An upstream's failures never make the gateway unready (the cache may still answer); they are
/// listed so that an operator sees which upstream is in trouble.
public struct UpstreamHealth: Sendable, Hashable, Encodable {
    /// How the most recent call went.
    public enum Status: String, Sendable, Hashable, Encodable {
        /// No call yet.
        case unknown
        /// The most recent call succeeded.
        case ok
        /// The most recent call failed.
        case failing
    }

    /// The service name from the config.
    public var service: String
    /// How the most recent call went.
    public var status: Status = .unknown
    /// When a call last succeeded.
    public var lastSuccess: Date?
    /// When a call last failed.
    public var lastFailure: Date?
    /// The error code of the last failure, e.g. `upstream_timeout`.
    public var lastError: String?
    /// Failures since the last success.
    public var consecutiveFailures = 0
    /// For a service with OAuth2: `pending`, `ok` or `failing` (see ``AuthStatus``); else absent.
    public var auth: String?
    /// Why the last token request failed, e.g. `invalid_client`.
    public var authError: String?

    /// An upstream not called yet.
    public init(service: String) {
        self.service = service
    }

    /// Records one call's outcome: `errorCode` is `nil` on success.
    public mutating func record(errorCode: String?, at time: Date) {
        if let errorCode {
            status = .failing
            lastFailure = time
            lastError = errorCode
            consecutiveFailures += 1
        } else {
            status = .ok
            lastSuccess = time
            consecutiveFailures = 0
        }
    }
}
