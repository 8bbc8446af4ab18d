/// What the stream reader does to one repository of this replica: apply another replica's
/// change to the local levels (and tell subscribers), or flush the local levels.
struct SharedCacheTarget: Sendable {
    /// Applies a message of another replica.
    var apply: @Sendable (InvalidationMessage) async -> Void
    /// Empties the local levels (news may have been missed).
    var flush: @Sendable () async -> Void
}
