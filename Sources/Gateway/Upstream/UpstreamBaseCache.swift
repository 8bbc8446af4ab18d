import Foundation
import Synchronization

/// The last base URL a service called, parsed: a call whose host provider gives the same URL
/// again (a fixed one always does) reuses its parts instead of parsing it again.
final class UpstreamBaseCache: Sendable {
    private let last = Mutex<UpstreamBase?>(nil)

    /// Creates an empty cache.
    init() {}

    /// The parts of `url`, called through `transport` (always the same one: the service's),
    /// parsed once for as long as it stays the URL asked for.
    func base(of url: URL, transport: any Transport) -> UpstreamBase? {
        if let cached = last.withLock({ $0 }), cached.url == url { return cached }
        guard let base = UpstreamBase(url: url, transport: transport) else { return nil }
        last.withLock { $0 = base }
        return base
    }
}
