/// A failure of a ``Datastore``.
public struct DatastoreError: ChainedError {
    /// What went wrong.
    public enum Kind: String, Sendable {
        /// Reading an entry failed (other than a plain miss).
        case readFailed = "datastore_read_failed"
        /// Writing an entry failed; the previous entry, if any, is intact.
        case writeFailed = "datastore_write_failed"
        /// Deleting an entry failed.
        case deleteFailed = "datastore_delete_failed"
        /// A value could not be encoded or decoded.
        case codingFailed = "datastore_coding_failed"
        /// The second level of a two-level datastore failed; the first level holds the value.
        case secondLevelFailed = "datastore_l2_failed"
    }

    /// The kind of failure.
    public let kind: Kind
    /// A human-readable message.
    public let message: String
    /// Extra context.
    public let details: [String: String]
    /// The wrapped error.
    public let inner: (any Error)?
    /// The stable code of ``kind``.
    public var code: String { kind.rawValue }

    /// Creates a datastore error.
    public init(_ kind: Kind, _ message: String, details: [String: String] = [:], inner: (any Error)? = nil) {
        self.kind = kind
        self.message = message
        self.details = details
        self.inner = inner
    }
}
