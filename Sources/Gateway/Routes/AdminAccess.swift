import HTTP1

/// Who may call the admin endpoints: holders of the configured bearer token, or, when no token is
/// configured, loopback clients only.
struct AdminAccess: Sendable {
    /// The token's bytes, or `nil` when none is configured.
    private let token: [UInt8]?

    /// Creates the rule for `token`.
    init(token: String?) { self.token = token.map { Array($0.utf8) } }

    /// `nil` when `request` may pass, else the refusal (401 without the right token, 403 for a
    /// remote client when no token is configured).
    func refusal(for request: HTTPRequest) -> GatewayError? {
        guard let token else {
            return Self.isLoopback(request.remoteAddress)
                ? nil
                : GatewayError(.forbidden, "The admin endpoints answer loopback clients only when no adminToken is set")
        }
        let prefix = "Bearer "
        guard let authorization = request.headers["Authorization"], authorization.hasPrefix(prefix),
            Self.constantTimeEquals(Array(authorization.utf8.dropFirst(prefix.utf8.count)), token)
        else { return GatewayError(.unauthorized, "The admin endpoints need Authorization: Bearer <adminToken>") }
        return nil
    }

    /// `nil` when `request` may use the embedded demo's knobs (`/__demo/…`): loopback clients
    /// and callers that pass ``refusal(for:)``; else a 403 refusal, so a gateway bound to
    /// `0.0.0.0` cannot be made to fail or slow down by anyone who reaches it.
    func demoRefusal(for request: HTTPRequest) -> GatewayError? {
        guard !Self.isLoopback(request.remoteAddress), refusal(for: request) != nil else { return nil }
        return GatewayError(.demoForbidden, "The demo knobs answer loopback clients and admin callers only")
    }

    /// Compares every byte whatever the first difference, so timing reveals nothing but the length.
    static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: lhs.count ^ rhs.count)
        for index in 0..<max(lhs.count, rhs.count) {
            let a = index < lhs.count ? lhs[index] : 0
            let b = index < rhs.count ? rhs[index] : 0
            difference |= a ^ b
        }
        return difference == 0 && lhs.count == rhs.count
    }

    /// `true` for `127.x.x.x`, `::1` and IPv4-mapped loopback addresses.
    static func isLoopback(_ address: String?) -> Bool {
        guard let address else { return false }
        return address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }
}
