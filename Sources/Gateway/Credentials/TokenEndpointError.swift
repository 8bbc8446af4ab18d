import RDS

/// What an OAuth2 token endpoint answered instead of a token: its RFC 6749 §5.2 error
/// (`invalid_client`, `invalid_scope`, …) as the code, or `token_endpoint_failed` /
/// `token_response_invalid` when it gave none or sent something unusable.
///
/// The description the endpoint sent is kept (bounded, the client secret removed should the
/// endpoint echo it); the endpoint's answer never holds a token here.
public struct TokenEndpointError: ChainedError {
    /// The endpoint's `error` value when it is a valid RFC 6749 error code, else one of ours.
    public let code: String
    /// What happened, with the endpoint's `error_description` when it sent one.
    public let message: String
    /// `status` (the HTTP status) and `token_endpoint`.
    public let details: [String: String]
    /// Always `nil`: this is the root of its chain.
    public var inner: (any Error)? { nil }

    /// Creates an error.
    init(code: String, message: String, details: [String: String]) {
        self.code = code
        self.message = message
        self.details = details
    }

    /// The code used when the endpoint failed without an RFC 6749 error.
    static let failedCode = "token_endpoint_failed"
    /// The code used when a success answer holds no usable token.
    static let invalidResponseCode = "token_response_invalid"

    /// `true` for an RFC 6749 §5.2 error code: `1*( %x20-21 / %x23-5B / %x5D-7E )`, here also
    /// without spaces and at most 64 characters, so that it reads as a stable code.
    static func isErrorCode(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64
            && text.unicodeScalars.allSatisfy {
                $0.value == 0x21 || (0x23...0x5B).contains($0.value) || (0x5D...0x7E).contains($0.value)
            }
    }
}
