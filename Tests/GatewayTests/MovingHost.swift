import Foundation
import RDS
import Synchronization

/// A ``HostProvider`` whose base URL a test changes while the service runs.
final class MovingHost: HostProvider {
    /// The URL it gives now.
    let url: Mutex<URL>

    init(_ url: URL) { self.url = Mutex(url) }

    var baseURL: URL { url.withLock { $0 } }
}
