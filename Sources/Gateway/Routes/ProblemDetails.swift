import Foundation
import RDS

/// An RFC 9457 Problem Details body with the error chain as the `inner` extension member.
public struct ProblemDetails: Encodable, Sendable {
    /// A URI naming the problem type, derived from the outermost code.
    public let type: String
    /// A short summary of the problem type.
    public let title: String
    /// The HTTP status.
    public let status: Int
    /// A human-readable explanation of this occurrence: the messages of the chain, outermost first.
    public let detail: String
    /// The request path.
    public let instance: String?
    /// The outermost error code.
    public let code: String
    /// The repository that failed, if any.
    public let repository: String?
    /// The rest of the chain.
    public let inner: NestedErrorLink?

    /// Builds the problem for `error`, answered with `status`.
    public init(error: any Error, status: Int, title: String, instance: String?, repository: String? = nil) {
        let chain = ErrorChain(error)
        let head = chain.links.first ?? ErrorLink(code: "unexpected", message: title)
        self.type = "https://rds-gateway.dev/errors/\(head.code)"
        self.title = title
        self.status = status
        self.detail = chain.links.map(\.message).joined(separator: ": ")
        self.instance = instance
        self.code = head.code
        self.repository = repository
        self.inner = chain.nested?.inner
    }

    /// The problem as `application/problem+json` bytes.
    public func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map(Array.init) ?? Array(#"{"status":500}"#.utf8)
    }
}
