import HTTP1

/// The request header fields a repository forwards to its upstream (and so keys its cache on).
///
/// Some fields are never forwarded, whatever the list says: hop-by-hop fields (RFC 9110 §7.6.1:
/// `Connection`, `Keep-Alive`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`, `Proxy-*`, and any
/// field a request's `Connection` names), framing and routing (`Host`, `Content-Length`, `Expect`),
/// and conditional or range fields (the gateway revalidates with its own validators and stores
/// whole representations). `Cookie` and `Authorization` pass only with `allowingCredentials`.
public struct HeaderAllowList: Sendable, Hashable {
    /// Fields that are never forwarded.
    public static let neverForwarded: Set<String> = [
        "connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "host", "content-length",
        "expect", "if-match", "if-none-match", "if-modified-since", "if-unmodified-since", "if-range", "range",
    ]
    /// Fields that carry the client's credentials.
    public static let credentials: Set<String> = ["cookie", "authorization"]

    /// The admitted names, lower-cased, after removing what is never forwarded.
    public let names: Set<String>

    /// Creates an allow-list of `names` (any case).
    /// - Parameters:
    ///   - names: The request header fields to forward.
    ///   - allowingCredentials: `true` to let `Cookie` and `Authorization` through when listed.
    public init(_ names: [String] = [], allowingCredentials: Bool = false) {
        self.names = Set(
            names.map { $0.lowercased() }.filter {
                Self.isForwardable($0) && (allowingCredentials || !Self.credentials.contains($0))
            })
    }

    /// `true` when a field named `name` (any case) is forwarded.
    public func admits(_ name: String) -> Bool { names.contains(name.lowercased()) }

    /// The admitted fields of `headers`, lower-cased names, repeated fields joined with `, `;
    /// fields the request's own `Connection` header names are left out.
    public func select(from headers: HTTPHeaders) -> [String: String] {
        guard !names.isEmpty else { return [:] }
        let connectionOptions = Set(
            headers.values(for: "Connection").flatMap { $0.split(separator: ",") }
                .map { $0.trimmingWhitespace().lowercased() })
        var selected: [String: String] = [:]
        for field in headers {
            let name = field.name.lowercased()
            guard names.contains(name), !connectionOptions.contains(name) else { continue }
            selected[name] = selected[name].map { $0 + ", " + field.value } ?? field.value
        }
        return selected
    }

    /// `false` for hop-by-hop, `Proxy-*` and the other fields in ``neverForwarded``.
    static func isForwardable(_ lowercasedName: String) -> Bool {
        !neverForwarded.contains(lowercasedName) && !lowercasedName.hasPrefix("proxy-")
    }
}
