import RDS
import Synchronization

/// Keeps every logged event for the operations tests.
final class CapturingLogger: Logger {
    struct Event: Sendable {
        var level: LogLevel
        var name: String
        var fields: [String: LogValue]
    }

    private let storage = Mutex<[Event]>([])

    var events: [Event] { storage.withLock { $0 } }

    func log(_ level: LogLevel, _ event: String, _ fields: [String: LogValue]) {
        storage.withLock { $0.append(Event(level: level, name: event, fields: fields)) }
    }
}
