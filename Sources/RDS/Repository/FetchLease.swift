/// What a ``FetchCoordinator`` decided for one fetch.
public enum FetchLease: Sendable {
    /// This process fetches; call `release` once the answer is stored or the fetch failed.
    case granted(release: @Sendable () async -> Void)
    /// Another process fetched and announced its answer, or its lease expired: read the
    /// datastore again, and fetch only when it holds nothing new.
    case waited
    /// No coordination (the shared store failed): fetch.
    case uncoordinated
}
