import Foundation
import RDS

/// One repository's disk cache level, as `/health/ready`, `/admin/repositories` and `/metrics`
/// report it.
///
/// A degraded or unavailable disk level never turns caching off: the repository keeps caching in
/// memory, and a degraded level recovers by itself at its next successful write.
public struct DiskLevelHealth: Sendable, Hashable, Encodable {
    /// How the disk level is doing.
    public enum Status: String, Sendable, Hashable, Encodable {
        /// The last write succeeded (or none failed yet).
        case ok
        /// The last write failed; entries are kept in memory only until a write succeeds again.
        case degraded
        /// The folder could not be opened at start-up: the repository caches in memory only.
        case unavailable
    }

    /// The repository name from the config.
    public var repository: String
    /// How the disk level is doing.
    public var status: Status
    /// Failed writes since start-up.
    public var writeFailures: Int
    /// What the last failed write met (a system call and its error, never a path), while degraded.
    public var lastError: String?
    /// When the last failed write happened, while degraded.
    public var lastFailure: Date?

    /// The health of a disk level from its statistics; `nil` statistics mean the level is unavailable.
    public init(repository: String, statistics: DatastoreStatistics?) {
        self.repository = repository
        guard let statistics else {
            status = .unavailable
            writeFailures = 0
            return
        }
        status = statistics.isDegraded ? .degraded : .ok
        writeFailures = statistics.writeFailures
        lastError = statistics.lastWriteFailure?.message
        lastFailure = statistics.lastWriteFailure?.at
    }

    /// `true` unless the level is ``Status/ok``.
    public var isDegraded: Bool { status != .ok }
}
