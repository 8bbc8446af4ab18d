/// What a webhook or an admin purge does to each resource it names.
enum ChangeAction: String, CaseIterable, Sendable {
    /// Fetch now (unconditionally) and publish the new state.
    case refresh
    /// Drop the stored value; subscribers see `initialized`.
    case invalidate
    /// Mark the stored value stale: the next read revalidates while serving it.
    case softPurge = "soft-purge"
}
