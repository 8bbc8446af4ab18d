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
    /// `true` when the list holds `*`: every other forwardable field except credentials is passed
    /// upstream too, without keying the cache (see ``passed(from:)``).
    public let forwardsAll: Bool

    /// Creates an allow-list of `names` (any case).
    /// - Parameters:
    ///   - names: The request header fields to forward.
    ///   - allowingCredentials: `true` to let `Cookie` and `Authorization` through when listed.
    public init(_ names: [String] = [], allowingCredentials: Bool = false) {
        self.names = Set(
            names.map { $0.lowercased() }.filter {
                $0 != "*" && Self.isForwardable($0) && (allowingCredentials || !Self.credentials.contains($0))
            })
        self.forwardsAll = names.contains("*")
    }

    /// `true` when a field named `name` (any case) is forwarded.
    public func admits(_ name: String) -> Bool { names.contains(name.lowercased()) }

    /// The admitted fields of `headers`, lower-cased names, repeated fields joined with `, `;
    /// fields the request's own `Connection` header names are left out.
    public func select(from headers: HTTPHeaders) -> [String: String] {
        guard !names.isEmpty else { return [:] }
        return Self.collect(headers) { names.contains($0) }
    }

    /// With ``forwardsAll``: the forwardable fields of `headers` that are neither admitted by name
    /// nor credentials nor named by the request's `Connection` (lower-cased names, repeated fields
    /// joined with `, `); empty otherwise. They go upstream but do not key the cache.
    public func passed(from headers: HTTPHeaders) -> [String: String] {
        guard forwardsAll else { return [:] }
        return Self.collect(headers, where: passes)
    }

    /// `true` when a field named `name` (lower-cased) goes upstream unkeyed under ``forwardsAll``:
    /// not admitted by name, not a credential, forwardable.
    public func passes(_ lowercasedName: String) -> Bool {
        forwardsAll && !names.contains(lowercasedName) && !Self.credentials.contains(lowercasedName)
            && Self.isForwardable(lowercasedName)
    }

    /// The fields of `headers` whose lower-cased name `admits` accepts and the request's
    /// `Connection` does not name, repeated fields joined with `, `.
    private static func collect(_ headers: HTTPHeaders, where admits: (String) -> Bool) -> [String: String] {
        let connectionOptions = Set(
            headers.values(for: "Connection").flatMap { $0.split(separator: ",") }
                .map { $0.trimmingWhitespace().lowercased() })
        var collected: [String: String] = [:]
        for field in headers {
            let name = field.name.lowercased()
            guard admits(name), !connectionOptions.contains(name) else { continue }
            collected[name] = collected[name].map { $0 + ", " + field.value } ?? field.value
        }
        return collected
    }

    /// `false` for hop-by-hop, `Proxy-*` and the other fields in ``neverForwarded``.
    static func isForwardable(_ lowercasedName: String) -> Bool {
        !neverForwarded.contains(lowercasedName) && !lowercasedName.hasPrefix("proxy-")
    }
}
