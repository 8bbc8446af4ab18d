/// Makes the ``Repository`` values of one repository, synchronously and cheaply.
///
/// The dependency container builds one factory per configured repository at start-up, with the
/// ``RepositoryStore`` (datastore, broadcasters, single-flight table) built once; every repository
/// it makes shares that store, so all requests see the same states and fetches.
public struct RepositoryFactory<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let template: Repository<Key, Value>

    /// Creates a factory for repositories with these parts (see ``Repository/init(name:store:service:policy:)``).
    public init(
        name: String, store: RepositoryStore<Key, Value>, service: any Service<Key, Value>, policy: RepositoryPolicy
    ) {
        template = Repository(name: name, store: store, service: service, policy: policy)
    }

    /// The repository's name.
    public var name: String { template.name }

    /// The store shared by every repository made.
    public var store: RepositoryStore<Key, Value> { template.store }

    /// A repository over the shared store; copying a struct, nothing is built.
    public func makeRepository() -> Repository<Key, Value> { template }
}
