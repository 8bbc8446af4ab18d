import RDS
import RDSTesting
import Testing

struct TaskPlacementTests {
    @Test func fetch_RunsOnTheScopesExecutor_WhenTheReadBindsOne() async throws {
        let executor = QueueTaskExecutor()
        let service = ExecutorProbeService(executor: executor)
        let store = RepositoryStore(datastore: FaultyDatastore(), clock: ManualClock(), logger: RecordingLogger())
        let repository = Repository(name: "weather", store: store, service: service, policy: RepositoryPolicy())

        let placed = try await TaskPlacement.$scope.withValue(executor) { try await repository.get("oslo") }
        let unplaced = try await repository.get("rome")

        #expect([placed.value, unplaced.value] == ["oslo", "rome"])
        #expect(service.ranOnExecutor == [true, false])
    }

    @Test func fetch_RunsInATaskTheScopeStarts_WhenItKeepsTasks() async throws {
        let scope = TaskKeepingScope()
        let service = ExecutorProbeService(executor: scope.executor)
        let store = RepositoryStore(datastore: FaultyDatastore(), clock: ManualClock(), logger: RecordingLogger())
        let repository = Repository(name: "weather", store: store, service: service, policy: RepositoryPolicy())

        let placed = try await TaskPlacement.$scope.withValue(scope) { try await repository.get("oslo") }

        #expect(placed.value == "oslo")
        #expect(scope.started == 1)
        #expect(service.ranOnExecutor == [true])
    }
}
