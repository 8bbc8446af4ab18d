import Dispatch
import Foundation
import RDSTesting
import Synchronization
import Testing

@testable import RDS

/// The first answer of a key nothing was stored for reaches the disk level behind the answer: a
/// cold miss does not wait for its file to be written.
@Suite(.timeLimit(.minutes(1)))
struct RepositoryWriteBehindTests {
    @Test func get_OfAColdKey_AnswersBeforeItsFileIsWritten_WhichIsWrittenAfter() async throws {
        let folder = try DatastoreTestFixtures.Folder()
        let disk = try FileDatastore<String, String>(directory: folder.store)
        let logger = RecordingLogger()
        let datastore = TwoLevelDatastore(l1: MemoryDatastore(maxBytes: 1 << 20, maxEntries: 100), l2: disk, logger: logger)
        let service = FakeService<String, String>()
        let repository = Repository(
            name: "weather", store: RepositoryStore(datastore: datastore, clock: ManualClock(), logger: logger),
            service: service, policy: RepositoryPolicy())
        service.expectGet("london", returning: RepositoryFixture.fetched("london-1"))
        // The key's queue is held: a write of its file cannot end until it is released.
        let location = try disk.location(of: "london")
        let hold = DispatchSemaphore(value: 0)
        location.queue.async { hold.wait() }

        let answered = Mutex(false)
        let reading = Task {
            let answer = try await repository.get("london")
            answered.withLock { $0 = true }
            return answer
        }
        let waitingSince = ContinuousClock.now
        while !answered.withLock({ $0 }), ContinuousClock.now - waitingSince < .seconds(10) {
            try await Task.sleep(for: .milliseconds(5))
        }
        let answeredWhileHeld = answered.withLock { $0 }
        let fileWhileHeld = FileManager.default.fileExists(atPath: location.path)
        hold.signal()
        let answer = try await reading.value
        await disk.finishWrites()

        #expect(answeredWhileHeld)
        #expect(!fileWhileHeld)
        #expect(answer.cacheStatus == .miss)
        #expect(FileManager.default.fileExists(atPath: location.path))
        #expect(try await disk.get("london")?.value == "london-1")
        #expect(disk.statistics.entries == 1)
    }
}
