import Foundation

/// Where an upstream listens: scheme, host and port, taken from a base URL.
public struct UpstreamEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host name or address (IPv6 without brackets).
    public let host: String
    /// The port (80 or 443 when the URL names none).
    public let port: Int

    /// Creates an endpoint.
    public init(scheme: String, host: String, port: Int) {
        self.scheme = scheme.lowercased()
        self.host = host
        self.port = port
    }

    /// The endpoint of an `http://` or `https://` URL; `nil` for other schemes or a missing host.
    public init?(url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return nil }
        let unbracketed = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.init(scheme: scheme, host: unbracketed, port: url.port ?? (scheme == "https" ? 443 : 80))
    }

    /// `true` for `https`.
    public var isSecure: Bool { scheme == "https" }

    /// The `Host` header value: the host, bracketed when IPv6, with the port unless it is the default.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isSecure ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// `scheme://host:port`, never with credentials, path or query.
    public var description: String { "\(scheme)://\(hostHeader)" }
}
