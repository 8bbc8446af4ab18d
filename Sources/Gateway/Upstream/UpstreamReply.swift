import RDS

/// The answer an upstream actually sent when it is an error (5xx): the innermost link of the
/// ``ServiceError`` chain. Its details carry the status and a bounded excerpt of the body, and it
/// keeps the whole answer so a repository with `upstreamErrors: "passthrough"` can send it on.
public struct UpstreamReply: ChainedError, Sendable {
    /// The most body bytes quoted in ``details``.
    public static let excerptLimit = 256

    /// The upstream's answer, as received.
    public let representation: Representation

    /// Wraps `representation`.
    public init(_ representation: Representation) { self.representation = representation }

    /// `upstream_reply`
    public var code: String { "upstream_reply" }
    /// `The upstream answered HTTP <status>`.
    public var message: String { "The upstream answered HTTP \(representation.status)" }
    /// `status` and `body`: the first ``excerptLimit`` bytes of the body, as text.
    public var details: [String: String] {
        var details = ["status": String(representation.status)]
        if !representation.body.isEmpty {
            let excerpt = representation.body.prefix(Self.excerptLimit)
            details["body"] =
                String(decoding: excerpt, as: UTF8.self) + (representation.body.count > Self.excerptLimit ? "…" : "")
        }
        return details
    }
    /// Always `nil`: nothing lies beneath the upstream's own answer.
    public var inner: (any Error)? { nil }

    /// The first ``UpstreamReply`` in `error`'s chain, if any.
    public static func find(in error: any Error) -> UpstreamReply? {
        var current: (any Error)? = error
        for _ in 0..<32 {
            guard let next = current else { return nil }
            if let reply = next as? UpstreamReply { return reply }
            current = (next as? any ChainedError)?.inner
        }
        return nil
    }
}
