import Foundation

extension ConfigurationValidator {
    /// Checks `services.NAME.auth`: exactly one of `bearer` or `oauth2`, and the OAuth2 values.
    func validateAuth(_ auth: AuthSettings, path: String) throws(ConfigurationError) {
        switch (auth.bearer, auth.oauth2) {
        case (.some, nil): return
        case (nil, let oauth2?): try validateOAuth2(oauth2, path: path + ".oauth2")
        default: throw fail(path, #"expected exactly one of "bearer" or "oauth2""#)
        }
    }

    private func validateOAuth2(_ oauth2: OAuth2Settings, path: String) throws(ConfigurationError) {
        try validateTokenURL(oauth2.tokenURL, path: path + ".tokenURL")
        guard !oauth2.clientId.isEmpty, !oauth2.clientId.contains(where: \.isNewline) else {
            throw fail(path + ".clientId", "expected the client identifier the token endpoint knows")
        }
        for (index, scope) in oauth2.scopes.enumerated() where !Self.isScopeToken(scope) {
            throw fail(
                "\(path).scopes[\(index)]",
                #"expected a scope (printable ASCII without spaces, " or \ as in RFC 6749 §3.3)"#)
        }
        if let audience = oauth2.audience, audience.isEmpty {
            throw fail(path + ".audience", "expected a non-empty audience, or no audience key")
        }
        for name in oauth2.parameters.keys.sorted() {
            guard !name.isEmpty, !OAuth2Settings.reservedParameters.contains(name) else {
                let reserved = OAuth2Settings.reservedParameters.sorted().joined(separator: ", ")
                throw fail("\(path).parameters.\(name)", "expected a parameter name other than \(reserved)")
            }
        }
        let fraction = oauth2.refreshFraction
        guard fraction > 0, fraction < 1 else {
            throw fail(
                path + ".refreshFraction", "expected a number above 0 and below 1, found \(Self.format(fraction))")
        }
        try requirePositive(oauth2.defaultLifetime, path + ".defaultLifetime", max: Self.maxLifetime)
    }

    private func validateTokenURL(_ text: String, path: String) throws(ConfigurationError) {
        // The value itself is never echoed: it may hold an interpolated secret.
        let expected = "expected http://host[:port]/path or https://…"
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { throw fail(path, expected) }
        guard url.fragment == nil, url.user == nil, url.password == nil else {
            throw fail(path, "\(expected) without fragment or credentials")
        }
    }

    /// RFC 6749 §3.3: `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`.
    private static func isScopeToken(_ scope: String) -> Bool {
        !scope.isEmpty
            && scope.unicodeScalars.allSatisfy {
                $0.value == 0x21 || (0x23...0x5B).contains($0.value)
                    || (0x5D...0x7E).contains($0.value)
            }
    }
}
