import RDS
import Synchronization

extension DatastoreTestFixtures {
    /// A logger that keeps every event, for asserting what a datastore logged.
    final class LogRecorder: Logger {
        /// One recorded event.
        struct Event: Equatable {
            let level: LogLevel
            let name: String
            let fields: [String: LogValue]
        }

        private let recorded = Mutex<[Event]>([])

        /// The events so far, oldest first.
        var events: [Event] { recorded.withLock { $0 } }

        func log(_ level: LogLevel, _ event: String, _ fields: [String: LogValue]) {
            recorded.withLock { $0.append(Event(level: level, name: event, fields: fields)) }
        }
    }
}
