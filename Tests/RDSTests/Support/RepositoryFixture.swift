import Foundation
import RDS
import RDSTesting

/// A repository of `String` values over a scripted service, a manual clock and a memory datastore.
struct RepositoryFixture {
    let clock = ManualClock()
    let service = FakeService<String, String>()
    let datastore = FaultyDatastore()
    let logger = RecordingLogger()
    let store: RepositoryStore<String, String>
    let repository: Repository<String, String>

    init(policy: RepositoryPolicy = RepositoryPolicy()) {
        store = RepositoryStore(datastore: datastore, clock: clock, logger: logger)
        repository = Repository(name: "weather", store: store, service: service, policy: policy)
    }

    /// A fetched value with `lifetime` seconds of freshness.
    static func fetched(
        _ value: String, lifetime: TimeInterval? = 60, etag: String? = nil, isStorable: Bool = true,
        mustRevalidate: Bool = false
    ) -> ServiceResponse<String> {
        .fetched(
            Fetched(
                value: value,
                freshness: Freshness(lifetime: lifetime, isStorable: isStorable, mustRevalidate: mustRevalidate),
                validators: Validators(etag: etag)))
    }

    /// Subscribes to `key` and returns a recorder that has already received the first state.
    func record(_ key: String) async -> StateRecorder<String> {
        let recorder = StateRecorder(repository.states(of: key))
        _ = await recorder.next(1)
        return recorder
    }

    /// Starts a read of `key` whose service call (answering `value`) is held by a new gate, and
    /// returns once the call is held.
    func startHeldRead(_ key: String, answering value: String) async -> (
        Task<RepositoryAnswer<String>, any Error>, FakeGate
    ) {
        let gate = FakeGate()
        service.expectGet(key, returning: Self.fetched(value), heldBy: gate)
        let task = Task { try await repository.get(key) }
        await gate.waitForArrivals(1)
        return (task, gate)
    }

    /// Stores `value` for `key` through a cold read, so later tests start from a known entry.
    func prime(_ key: String, _ value: String, lifetime: TimeInterval = 60, etag: String? = nil) async throws {
        service.expectGet(key, returning: Self.fetched(value, lifetime: lifetime, etag: etag))
        _ = try await repository.get(key)
    }
}
