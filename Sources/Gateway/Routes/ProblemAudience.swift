import RDS

/// Who reads the problem bodies the current request is answered with.
///
/// Anonymous clients see every link's code and message, but the values that locate the
/// gateway's internals (the upstream endpoint and path, a secret's file or variable, the token endpoint, a cache
/// file, the resource key) are removed from the details and replaced by `[hidden]` in messages.
/// Admin callers (those ``AdminAccess`` lets in: the bearer token when one is configured, else
/// loopback clients) see the whole chain. The log line of the request always has it.
public enum ProblemAudience: Sendable {
    /// A client that did not pass the admin check.
    case anonymous
    /// A caller that passed the admin check.
    case administrator

    /// The audience of the request the current task answers, as ``GatewayRouter`` recorded it in
    /// the request's ``RequestContext``; anonymous without one.
    public static var current: ProblemAudience { RequestContext.current?.audience ?? .anonymous }

    /// The detail keys whose values locate internals.
    static let internalDetails: Set<String> = ["endpoint", "path", "secret_source", "token_endpoint", "file", "key"]

    /// What this audience may see of `links`, in the same order.
    func visible(_ links: [ErrorLink]) -> [ErrorLink] {
        guard self == .anonymous else { return links }
        // Longest first, so that an endpoint is hidden whole before any shorter value inside it.
        // A one-byte value (the path `/`) locates nothing and would blank every slash.
        let hidden = Set(links.flatMap { link in link.details.filter { Self.internalDetails.contains($0.key) }.values })
            .filter { $0.count > 1 }.sorted { $0.count > $1.count }
        return links.map { link in
            var message = link.message
            for value in hidden { message = message.replacingOccurrences(of: value, with: "[hidden]") }
            return ErrorLink(
                code: link.code, message: message,
                details: link.details.filter { !Self.internalDetails.contains($0.key) })
        }
    }
}
