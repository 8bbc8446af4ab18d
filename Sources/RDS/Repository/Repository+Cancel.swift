extension Repository {
    /// Cancels the fetch of `key` under way, if any: subscribers see
    /// ``TransitionEvent/canceled`` then the state the resource rests in, and every caller
    /// waiting for it gets ``RepositoryErrorKind/fetchCancelled``.
    /// - Returns: `true` when a fetch was cancelled.
    @discardableResult
    public func cancelFetch(_ key: Key) -> Bool {
        store.flights.cancel(
            key, with: RepositoryError(.fetchCancelled, "The fetch was cancelled by an administrator", details: details(key)))
    }
}
