/// One link of an error chain, ready to be rendered as JSON.
public struct ErrorLink: Sendable, Hashable, Codable {
    /// The stable code of the error.
    public let code: String
    /// The human-readable message.
    public let message: String
    /// Extra context.
    public let details: [String: String]

    /// Creates a link.
    public init(code: String, message: String, details: [String: String] = [:]) {
        self.code = code
        self.message = message
        self.details = details
    }
}
