/// The read and write logic of one repository, over a shared ``RepositoryStore`` and a ``Service``.
///
/// A repository is a cheap value: build one per request with the synchronous initialiser. All
/// shared state (datastore, broadcasters, fetches under way) lives in the store, so every
/// repository value built over the same store sees the same keys, states and single flights.
///
/// Reads follow the ``RepositoryPolicy``; the states of each key are published to subscribers of
/// ``states(of:)``:
/// - a fetch publishes `.loading(previous:)`, then `.loaded(value, origin: .service or .revalidated, at:)`
///   or `.failed(error, cached:)`, where `cached` is a stale value still served (stale-if-error);
/// - a cache hit publishes nothing (the state does not change), nor does a hit-for-pass read of a
///   key nobody watches (see ``get(_:intent:)``), unless it fails;
/// - a fetch abandoned by all its waiters re-publishes the state it started from;
/// - a fetch overtaken by a successful write neither stores nor publishes its older answer;
/// - a successful `save` or `delete` publishes exactly one state: `.loaded(value, origin: .write, at:)`
///   when the service's answer is stored, `.initialized` when the key is dropped; a failed one none;
/// - `purge` and `purgeAll` publish `.initialized`.
///
/// ``state(of:)`` keeps reporting a key's last `.failed(error, cached:)` after its subscribers have
/// gone, until a later successful load, write or purge (for a bounded number of keys, see
/// ``RepositoryStore/init(datastore:clock:logger:stateBufferSize:maxRememberedFailures:)``).
public struct Repository<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The repository's name, used in logs and error details.
    public var name: String { parts.name }
    /// The shared store.
    public var store: RepositoryStore<Key, Value> { parts.store }
    /// The source of truth.
    public var service: any Service<Key, Value> { parts.service }
    /// The read policy.
    public var policy: RepositoryPolicy { parts.policy }

    /// The parts, in one shared box: a repository is copied on every request (out of its
    /// route, into the tasks of its reads), which is then one reference count, not one per
    /// part with the service's existential copied through the runtime's witnesses (~210
    /// instructions a copy).
    private let parts: Parts

    private final class Parts: Sendable {
        let name: String
        let store: RepositoryStore<Key, Value>
        let service: any Service<Key, Value>
        let policy: RepositoryPolicy

        init(name: String, store: RepositoryStore<Key, Value>, service: any Service<Key, Value>, policy: RepositoryPolicy) {
            self.name = name
            self.store = store
            self.service = service
            self.policy = policy
        }
    }

    /// Creates a repository; cheap and synchronous.
    public init(
        name: String, store: RepositoryStore<Key, Value>, service: any Service<Key, Value>, policy: RepositoryPolicy
    ) {
        parts = Parts(name: name, store: store, service: service, policy: policy)
    }

    /// The current state of `key`: the live one while it loads or has subscribers, else its last
    /// unresolved failure, else its resting state (`.loaded` from the memory level, or `.initialized`).
    public func state(of key: Key) -> ResourceState<Value> {
        store.broadcasters.current(of: key) ?? store.restingState(of: key)
    }

    /// The states of `key`: the current state first, then each change. Each subscriber buffers a
    /// few states; a slow one skips to the newest. Dropping the stream or cancelling the task that
    /// reads it releases the subscription.
    public func states(of key: Key) -> AsyncStream<ResourceState<Value>> {
        store.broadcasters.subscribe(to: key) { store.restingState(of: key) }
    }

    /// Error details naming this repository and `key`.
    func details(_ key: Key) -> [String: String] {
        ["repository": name, "key": String(describing: key)]
    }
}
