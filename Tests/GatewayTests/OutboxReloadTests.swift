import Foundation
import RDSTesting
import Testing

@testable import Gateway

/// A configuration reload hands a rebuilt repository the outbox and idempotency ledger it had:
/// their files keep one owner, so no acknowledged write is appended to a replaced journal.
struct OutboxReloadTests {
    @Test func rebuiltRepository_KeepsItsOutboxAndLedger() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rds-reload-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let down = try RefusingPort()
        var repository = RepositorySettings(route: "/items/{id}", service: "up", methods: ["GET", "PUT"])
        repository.writes.queue = WriteQueueSettings()
        var configuration = GatewayConfiguration(
            server: ServerSettings(port: 0), cache: CacheSettings(disk: DiskCacheSettings(path: folder.path)),
            services: ["up": ServiceSettings(baseURL: down.baseURL)], repositories: ["items": repository])
        let first = try await Bootstrap.makeContainer(configuration: configuration, logger: RecordingLogger())
        configuration.repositories["items"]?.defaultTTL = 30
        let second = try await Bootstrap.makeContainer(
            configuration: configuration, logger: RecordingLogger(), reusing: first)

        #expect(second.keptRepositories.isEmpty)
        #expect(second.outboxes["items"] === first.outboxes["items"])
        #expect(second.ledgers["items"] === first.ledgers["items"])
        await Bootstrap.shutdown(container: second)
    }
}
