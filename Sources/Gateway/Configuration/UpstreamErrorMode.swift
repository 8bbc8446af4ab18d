/// What a repository sends its client when the upstream answers 5xx and no stored value may
/// stand in (`upstreamErrors`).
public enum UpstreamErrorMode: String, Sendable, Equatable, Decodable, CaseIterable {
    /// Problem Details with the error chain; the innermost link holds the upstream's status and
    /// an excerpt of its body (the default).
    case problem
    /// The upstream's own status, header fields and body.
    case passthrough
}
