/// One stored note of the demo upstream's read-write `notes` resource.
struct DemoNote: Sendable {
    /// The body exactly as written.
    var body: [UInt8]
    /// The content type it was written with.
    var contentType: String
    /// Bumped on every write; part of the ETag.
    var revision: Int
}
