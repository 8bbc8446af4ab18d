import RDS

/// A credential read from a ``SecretReader`` and sent as is: a static API key in a header or
/// the query, or a bearer token (`Authorization: Bearer <token>`) from a variable or a file.
///
/// A file is re-read when it changes, so a rotated secret is sent from the next call on; after
/// a 401, a retry is worth it only when the file now holds another secret.
public struct SecretCredentialProvider: CredentialProvider {
    /// Reads the secret.
    public let reader: SecretReader
    /// Where the credential goes.
    public let placement: Credential.Placement
    /// The authentication scheme put before the secret, e.g. `Bearer`; `nil` for a bare key.
    public let scheme: String?

    /// Creates a provider sending the secret of `reader` at `placement`, after `scheme` and a space when given.
    public init(reader: SecretReader, placement: Credential.Placement, scheme: String? = nil) {
        self.reader = reader
        self.placement = placement
        self.scheme = scheme
    }

    /// A bearer token from `source`, sent as `Authorization: Bearer <token>`.
    public static func bearer(_ reader: SecretReader) -> SecretCredentialProvider {
        SecretCredentialProvider(reader: reader, placement: .header("Authorization"), scheme: "Bearer")
    }

    /// The current secret at its placement.
    /// - Throws: ``ServiceError`` (`unavailable`) naming the variable or file when it cannot be read.
    public func credential() async throws -> Credential {
        try current()
    }

    /// `true` when the secret changed since `credential` was read (a rotated file).
    public func rejected(_ credential: Credential) async -> Bool {
        guard let fresh = try? current() else { return false }
        return fresh != credential
    }

    private func current() throws -> Credential {
        let secret = try reader.read()
        return Credential(placement: placement, value: scheme.map { "\($0) \(secret)" } ?? secret)
    }
}
