import Foundation
import HTTP1

/// The URIs besides its target that a successful unsafe request invalidates (RFC 9111 §4.4):
/// those in the answer's `Location` and `Content-Location`, when they share the target's origin.
public enum InvalidationTargets {
    /// The absolute same-origin URIs named by `headers` of an answer with `status` to a request
    /// for `requestURL`; none for an error status (only a non-error answer invalidates).
    public static func uris(in headers: HTTPHeaders, status: Int, requestURL: URL) -> [URL] {
        guard (200..<400).contains(status) else { return [] }
        return ["Location", "Content-Location"].compactMap { headers[$0] }
            .compactMap { URL(string: $0.trimmingCharacters(in: .whitespaces), relativeTo: requestURL)?.absoluteURL }
            .filter { origin(of: $0) != nil && origin(of: $0) == origin(of: requestURL) }
    }

    /// Scheme, host and port (the scheme's default when absent), lower-cased (RFC 9110 §4.3.1).
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }
}
