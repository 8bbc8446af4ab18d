extension RepositoryPolicy {
    /// Which side is the source of truth for reads.
    public enum Mode: String, Sendable, Hashable, Codable {
        /// The datastore answers while its entry is fresh; the service is asked on a miss or once stale.
        case cacheFirst
        /// The service answers every read; the datastore is used only when the service fails.
        case networkFirst
    }
}
