import Foundation
import RDS

/// A base URL known up front.
public struct FixedHostProvider: HostProvider {
    /// The upstream's base URL.
    public let baseURL: URL

    /// Creates a provider for `baseURL`.
    public init(baseURL: URL) { self.baseURL = baseURL }
}
