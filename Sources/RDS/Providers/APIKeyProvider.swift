/// Supplies the API key a service sends to its upstream.
///
/// Called once per upstream call, so a rotated key is picked up; implementations keep it cheap.
/// The key must never reach a log or an error message.
public protocol APIKeyProvider: Sendable {
    /// The current key.
    /// - Throws: a ``ChainedError`` naming where the key should have come from (never the key).
    func apiKey() throws -> String
}
