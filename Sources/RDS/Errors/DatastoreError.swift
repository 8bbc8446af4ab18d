/// A failure of a ``Datastore``.
public typealias DatastoreError = LayerError<DatastoreErrorKind>

/// What went wrong (``DatastoreError``'s `Kind`); the raw value is the stable `code`.
public enum DatastoreErrorKind: String, Sendable {
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
