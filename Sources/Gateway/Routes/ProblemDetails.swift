import Foundation
import RDS

/// An RFC 9457 Problem Details body for an error chain.
///
/// The top-level `code`, `type`, `title`, `status` and `detail` describe the *cause* that decided
/// the status (see ``ProblemCause``), e.g. `upstream_timeout` for a 504, or the gateway's own
/// refusal; `inner` is the whole chain, from the outermost layer down to `null`:
///
/// ```json
/// {"type": "https://rds-gateway.dev/errors/upstream_timeout", "title": "Upstream timed out",
///  "status": 504, "detail": "…", "instance": "/weather/london", "code": "upstream_timeout",
///  "repository": "weather",
///  "inner": {"code": "fetch_failed", "message": "…",
///            "inner": {"code": "upstream_timeout", "message": "…",
///                      "inner": {"code": "transport_timeout", "message": "…", "inner": null}}}}
/// ```
public struct ProblemDetails: Encodable, Sendable {
    /// A URI naming the problem type, derived from the cause's code.
    public let type: String
    /// A short summary of the problem type.
    public let title: String
    /// The HTTP status, decided by the cause.
    public let status: Int
    /// A human-readable explanation of this occurrence: the cause's message.
    public let detail: String
    /// The request path.
    public let instance: String?
    /// The code of the cause that decided the status.
    public let code: String
    /// The repository that failed, if any.
    public let repository: String?
    /// The whole chain, outermost link first.
    public let inner: NestedErrorLink?
    /// For a failed write: what it tried to write.
    var element: WrittenElement?

    /// Builds the problem for `error`; its status, title, code and detail come from the cause.
    /// - Parameters:
    ///   - error: The failure, usually a chain of ``ChainedError``s.
    ///   - instance: The request path.
    ///   - repository: The repository that failed, if any.
    ///   - audience: Who reads it: anonymous clients do not see internal locations.
    public init(
        error: any Error, instance: String?, repository: String? = nil, audience: ProblemAudience = .anonymous
    ) {
        let cause = ProblemCause(error)
        let links = ErrorChain(error).links
        let shown = audience.visible(links)
        let causeIndex = links.firstIndex(of: cause.link)
        self.type = "https://rds-gateway.dev/errors/\(cause.link.code)"
        self.title = cause.title
        self.status = cause.status
        self.detail = causeIndex.map { shown[$0].message } ?? cause.link.message
        self.instance = instance
        self.code = cause.link.code
        self.repository = repository
        self.inner = ErrorChain(links: shown).nested
    }

    /// The problem as `application/problem+json` bytes.
    public func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map(Array.init) ?? Array(#"{"status":500}"#.utf8)
    }
}
