import Foundation

/// The last failed write of a datastore level: what failed and when, without paths or keys.
public struct DatastoreFailure: Sendable, Hashable {
    /// The stable code of the failure, such as `datastore_write_failed`.
    public var code: String
    /// What the system said, such as `open failed: Not a directory`.
    public var message: String
    /// When it failed.
    public var at: Date

    /// Creates a failure record.
    public init(code: String, message: String, at: Date) {
        self.code = code
        self.message = message
        self.at = at
    }
}
