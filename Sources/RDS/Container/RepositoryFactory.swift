/// Makes the ``Repository`` values of one repository, synchronously and cheaply.
///
/// The dependency container builds one factory per configured repository at start-up, with the
/// ``RepositoryStore`` (datastore, broadcasters, single-flight table) built once; every repository
/// it makes shares that store, so all requests see the same states and fetches.
public struct RepositoryFactory<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The repository's name.
    public let name: String
    /// The store shared by every repository made.
    public let store: RepositoryStore<Key, Value>
    /// The service every repository made talks to.
    public let service: any Service<Key, Value>
    /// The policy every repository made follows.
    public let policy: RepositoryPolicy

    /// Creates a factory.
    public init(
        name: String, store: RepositoryStore<Key, Value>, service: any Service<Key, Value>, policy: RepositoryPolicy
    ) {
        self.name = name
        self.store = store
        self.service = service
        self.policy = policy
    }

    /// A repository over the shared store.
    public func makeRepository() -> Repository<Key, Value> {
        Repository(name: name, store: store, service: service, policy: policy)
    }
}
