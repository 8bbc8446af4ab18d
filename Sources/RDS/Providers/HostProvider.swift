import Foundation

/// Supplies the base URL of an upstream, for upstreams whose address is known only at run time
/// (such as an embedded server bound to port 0).
public protocol HostProvider: Sendable {
    /// The upstream's base URL, e.g. `http://127.0.0.1:8081/api`.
    var baseURL: URL { get }
}
