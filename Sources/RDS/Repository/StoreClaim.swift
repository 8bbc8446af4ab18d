/// What entitles a fetch to store its answer: that no write of the key has come since the fetch
/// began (the write's answer is newer). See ``InFlightTable/beginStore(_:claim:)``.
enum StoreClaim: Sendable {
    /// A single-flight fetch: the flight with this id, not superseded by a write.
    case flight(UInt64)
    /// A fetch outside the table (a hit-for-pass read): no write of the repository began after
    /// ``InFlightTable/writeCount`` read this value.
    case noWriteSince(UInt64)
}
