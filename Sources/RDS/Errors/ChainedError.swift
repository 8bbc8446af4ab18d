/// An error that belongs to one layer and may wrap the error that layer caught.
///
/// The HTTP edge walks `inner` to render the whole chain as JSON. `message` and `details`
/// must never contain secrets (API keys, tokens, credentials in URLs).
public protocol ChainedError: Error {
    /// A stable, machine-readable code such as `upstream_timeout`.
    var code: String { get }
    /// A short human-readable explanation.
    var message: String { get }
    /// Extra context, such as the key or the upstream host.
    var details: [String: String] { get }
    /// The error this one wraps, if any.
    var inner: (any Error)? { get }
}
