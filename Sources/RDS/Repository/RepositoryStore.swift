/// The shared, long-lived part of a repository: datastore, clock, logger, the per-key state
/// broadcasters, the write process states and the single-flight table.
///
/// Build one per repository, once, in the dependency container, and hand it to every
/// ``Repository`` value made for that repository; the repositories themselves stay cheap structs.
public final class RepositoryStore<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Where values are kept.
    public let datastore: any Datastore<Key, Value>
    /// The time source for every freshness decision and fetch deadline.
    public let clock: any ClockProvider
    /// Where repository events are logged.
    public let logger: any Logger
    /// The per-key state broadcasters.
    public let broadcasters: StateBroadcasterRegistry<Key, Value>
    /// The write and delete process states of each key, published beside its read states.
    public let writes: WriteStateRegistry<Key, Value>
    /// The datastore's synchronous view, when it has one (see ``PeekableDatastore``).
    let peekable: (any PeekableDatastore<Key, Value>)?
    /// The fetches under way, one per key.
    let flights: InFlightTable<Key, Value>
    /// Makes one fetch per key across processes sharing a level, when set.
    let coordinator: (any FetchCoordinator<Key>)?
    /// Keys whose last answer could not be stored: read from the service without a lookup.
    let passMarks = PassMarks<Key>()
    /// The timers of fetch deadlines, on ``clock``: one sleeping task for all of them.
    let deadlines: RefreshScheduler

    /// Creates the store.
    /// - Parameters:
    ///   - datastore: Where values are kept; a ``PeekableDatastore`` also enables ``Repository/cachedAnswer(for:)``.
    ///   - clock: The time source.
    ///   - logger: Where events are logged.
    ///   - stateBufferSize: How many states each subscriber buffers before older unread ones are dropped.
    ///   - maxRememberedFailures: How many keys' last failures ``Repository/state(of:)`` remembers
    ///     while nobody subscribes (the least recently failed are forgotten first).
    ///   - coordinator: Coordinates fetches with other processes sharing a level (a lease), or `nil`.
    public init(
        datastore: any Datastore<Key, Value>, clock: any ClockProvider, logger: any Logger, stateBufferSize: Int = 16,
        maxRememberedFailures: Int = 256, coordinator: (any FetchCoordinator<Key>)? = nil
    ) {
        let peekable = datastore as? any PeekableDatastore<Key, Value>
        let broadcasters = StateBroadcasterRegistry<Key, Value>(
            bufferSize: stateBufferSize, maxRememberedFailures: maxRememberedFailures)
        self.datastore = datastore
        self.clock = clock
        self.deadlines = RefreshScheduler(clock: clock)
        self.logger = logger
        self.peekable = peekable
        self.coordinator = coordinator
        self.broadcasters = broadcasters
        self.writes = WriteStateRegistry(bufferSize: stateBufferSize)
        self.flights = InFlightTable(broadcasters: broadcasters) { key in Self.restingState(of: key, in: peekable) }
    }

    /// The number of callers waiting for the fetch of `key` (for metrics and tests).
    public func waiterCount(for key: Key) -> Int { flights.waiterCount(for: key) }

    /// How many reads have joined a fetch already under way for their key, instead of calling the
    /// service again, since the store was made (for metrics).
    public var coalescedWaiters: Int { flights.coalescedWaiters }

    /// `true` while a fetch of `key` is under way.
    public func isFetching(_ key: Key) -> Bool { flights.isFetching(key) }

    /// The state of a key nobody is watching: `.loaded` from the in-memory entry when the datastore
    /// can peek and holds one, otherwise `.initialized`.
    func restingState(of key: Key) -> ResourceState<Value> { Self.restingState(of: key, in: peekable) }

    private static func restingState(
        of key: Key, in peekable: (any PeekableDatastore<Key, Value>)?
    ) -> ResourceState<Value> {
        restingState(holding: peekable?.peek(key))
    }

    /// The resting state of a key whose in-memory entry is `entry`.
    static func restingState(holding entry: CacheEntry<Value>?) -> ResourceState<Value> {
        guard let entry else { return .initialized }
        return .loaded(entry.value, origin: .cache, at: entry.storedAt)
    }
}
