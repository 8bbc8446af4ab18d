import Foundation
import HTTP1
import RDS
import RDSTesting
import Testing

@testable import Gateway

/// One delivery of a queued write, over a scripted service and a manual clock (issue 11 §3).
@Suite(.timeLimit(.minutes(1)))
struct WriteDeliveryTests {
    private static let key = ResourceKey(repository: "items", path: "/items/a")
    private let clock = ManualClock()
    private let service = FakeService<ResourceKey, Representation>()
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("delivery-\(UUID())")

    private func make(maxAge: TimeInterval = 3_600) throws -> (WriteOutbox, WriteDelivery, Repository<ResourceKey, Representation>) {
        let outbox = try WriteOutbox(
            repository: "items", path: folder.appendingPathComponent("journal").path,
            settings: WriteQueueSettings(maxAge: maxAge, retryBase: 2, retryMax: 10), clock: clock,
            logger: RecordingLogger())
        let store = RepositoryStore<ResourceKey, Representation>(
            datastore: MemoryDatastore(maxBytes: 1 << 20, maxEntries: 100), clock: clock, logger: RecordingLogger())
        let repository = Repository(name: "items", store: store, service: service, policy: RepositoryPolicy())
        return (outbox, WriteDelivery(outbox: outbox, metrics: GatewayMetrics().writes) { repository }, repository)
    }

    private static func reply(_ status: Int, _ headers: HTTPHeaders = [:]) -> WriteResult<Representation> {
        WriteResult(reply: Representation(status: status, headers: headers), stored: nil)
    }

    @Test func failures_Reschedule_WithBackoffAndRetryAfter_ThenSuccessRetires() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (outbox, delivery, repository) = try make()
        let element = Representation.write(.put, body: [1], contentType: nil, idempotencyKey: "k")
        let write = try await outbox.accept(.write, element: element, for: Self.key)
        let start = clock.now

        service.expectSave(Self.key, .failure(ServiceError(.unavailable, "down")))
        await delivery.deliver(write)
        let first = try #require(outbox.write(write.id))
        #expect(first.attempts == 1)
        #expect((1.6...2.0).contains(first.nextAttemptAt.timeIntervalSince(start)))

        service.expectSave(Self.key, .success(Self.reply(429, ["Retry-After": "30"])))
        await delivery.deliver(first)
        let second = try #require(outbox.write(write.id))
        #expect(second.nextAttemptAt.timeIntervalSince(start) == 30)
        #expect(second.lastError == "HTTP 429")

        service.expectSave(Self.key, .success(Self.reply(201)))
        await delivery.deliver(second)
        #expect(outbox.write(write.id) == nil)
        #expect(outbox.pendingCount == 0)
        #expect(repository.writeState(.write, of: Self.key).name == "succeeded")
    }

    @Test func rejection_DeadLetters_AndExpiry_DeadLettersUnsent() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (outbox, delivery, repository) = try make(maxAge: 60)
        let element = Representation.write(.put, body: [1], contentType: nil)
        let rejected = try await outbox.accept(.write, element: element, for: Self.key)
        service.expectSave(Self.key, .success(Self.reply(409)))
        service.expectGet(Self.key, returning: .fetched(Fetched(value: Representation(status: 200), freshness: Freshness(lifetime: 60), validators: Validators())))
        await delivery.deliver(rejected)
        #expect(outbox.write(rejected.id)?.deadReason == "rejected: HTTP 409")
        #expect(repository.writeState(.write, of: Self.key).name == "failed")

        let other = ResourceKey(repository: "items", path: "/items/b")
        let expired = try await outbox.accept(.delete, element: element, for: other)
        clock.advance(by: 61)
        service.expectGet(other, returning: .fetched(Fetched(value: Representation(status: 404), freshness: Freshness(lifetime: 60), validators: Validators())))
        await delivery.deliver(expired)
        #expect(outbox.write(expired.id)?.deadReason == "expired")
        #expect(outbox.deadCount == 2)
        #expect(service.calls.filter { if case .delete = $0 { true } else { false } }.isEmpty)
    }

    @Test(arguments: [
        (ServiceError(.unavailable, "refused"), true), (ServiceError(.timeout, "slow"), true),
        (ServiceError(.badResponse, "5xx", details: ["status": "503"]), true),
        (ServiceError(.badResponse, "5xx", details: ["status": "500"]), false),
        (ServiceError(.rejected, "no"), false),
    ])
    func transientFailures_AreThoseThatQueue(error: ServiceError, queues: Bool) {
        #expect(WriteDelivery.isTransient(error) == queues)
    }
}
