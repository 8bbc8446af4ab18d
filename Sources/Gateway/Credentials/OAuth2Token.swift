import Foundation
import RDS

/// An access token held by an ``OAuth2CredentialProvider``, with the times that govern it.
///
/// Its descriptions never show the token.
struct OAuth2Token: Sendable, Equatable, CustomStringConvertible {
    /// What is sent: `Authorization: Bearer <token>`.
    let credential: Credential
    /// When the request that got it was sent (the lifetime counts from there, to be safe).
    let issuedAt: Date
    /// When it stops being sent.
    let expiresAt: Date
    /// When the background refresh asks for the next one.
    let refreshAt: Date

    /// A token valid for `lifetime` seconds from `issuedAt`, refreshed after `fraction` of it, and
    /// never sooner than a second after `receivedAt` (so that a tiny lifetime cannot spin the refresher).
    init(accessToken: String, lifetime: TimeInterval, fraction: Double, issuedAt: Date, receivedAt: Date) {
        credential = Credential(placement: .header("Authorization"), value: "Bearer \(accessToken)")
        self.issuedAt = issuedAt
        expiresAt = issuedAt + lifetime
        refreshAt = max(issuedAt + lifetime * fraction, receivedAt + 1)
    }

    /// `OAuth2Token(expires …, redacted)`.
    var description: String { "OAuth2Token(expires \(expiresAt), redacted)" }
}
