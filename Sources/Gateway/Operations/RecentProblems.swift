import Foundation
import RDS
import Synchronization

/// The last problem answers the gateway gave (at most ``capacity``), newest first, with their
/// whole error chains: what `GET /admin/errors` and the status page show.
public final class RecentProblems: Sendable {
    /// One problem answer.
    public struct Entry: Sendable, Hashable {
        /// When it was answered.
        public var at: Date
        /// The request's method and path (never its query: it may hold tokens).
        public var method: String
        /// The request's path.
        public var path: String
        /// The status answered.
        public var status: Int
        /// The request's id (`X-Request-ID`).
        public var requestID: String
        /// The error chain, outermost link first, as the request's log line has it.
        public var chain: String
    }

    /// The most entries kept.
    public let capacity: Int
    private let clock: any ClockProvider
    private let entries = Mutex<[Entry]>([])

    /// Creates an empty list.
    /// - Parameters:
    ///   - capacity: The most entries kept; older ones are dropped.
    ///   - clock: Stamps each entry.
    public init(capacity: Int = 50, clock: any ClockProvider) {
        self.capacity = max(1, capacity)
        self.clock = clock
    }

    /// Keeps a problem answer, dropping the oldest past ``capacity``.
    public func record(method: String, path: String, status: Int, requestID: String, chain: String) {
        let entry = Entry(at: clock.now, method: method, path: path, status: status, requestID: requestID, chain: chain)
        entries.withLock { entries in
            entries.append(entry)
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
    }

    /// The entries, newest first.
    public var newestFirst: [Entry] { entries.withLock { $0.reversed() } }

    /// The entries as JSON objects, newest first.
    var jsonObjects: [[String: Any]] {
        newestFirst.map { entry in
            [
                "at": entry.at.formatted(.iso8601), "method": entry.method, "path": entry.path,
                "status": entry.status, "requestId": entry.requestID, "error": entry.chain,
            ]
        }
    }
}
