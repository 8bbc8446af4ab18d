import RDS
import Synchronization

/// A ``Logger`` that keeps every event in memory for tests to inspect.
public final class RecordingLogger: Logger {
    /// One recorded event.
    public struct Entry: Sendable, Hashable {
        /// The level.
        public let level: LogLevel
        /// The event name.
        public let event: String
        /// The fields.
        public let fields: [String: LogValue]
    }

    private let recorded = Mutex<[Entry]>([])

    /// Creates an empty logger.
    public init() {}

    /// Every event so far, oldest first.
    public var entries: [Entry] { recorded.withLock { $0 } }

    /// The names of every event so far, oldest first.
    public var events: [String] { entries.map(\.event) }

    /// Records the event.
    public func log(_ level: LogLevel, _ event: String, _ fields: [String: LogValue]) {
        recorded.withLock { $0.append(Entry(level: level, event: event, fields: fields)) }
    }
}
