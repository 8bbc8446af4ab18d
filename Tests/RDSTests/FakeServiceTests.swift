import Foundation
import RDS
import RDSTesting
import Testing

struct FakeServiceTests {
    @Test func get_RecordsIssueAndThrows_WhenCallWasNotScripted() async {
        let service = FakeService<String, String>()

        await withKnownIssue {
            await #expect(throws: ServiceError.self) { try await service.get("london", ifChangedFrom: nil) }
        }
        #expect(service.getCount(for: "london") == 1)
    }

    @Test func get_RecordsIssue_WhenValidatorsDifferFromScript() async throws {
        let service = FakeService<String, String>()
        service.expectGet(
            "london", ifChangedFrom: .some(Validators(etag: "\"a\"")), returning: RepositoryFixture.fetched("v"))

        await withKnownIssue {
            _ = try await service.get("london", ifChangedFrom: Validators(etag: "\"b\""))
        }
        #expect(service.unusedScripts == 0)
    }

    @Test func get_AnswersScriptsInOrder_PerKey() async throws {
        let service = FakeService<String, String>()
        service.expectGet("london", returning: RepositoryFixture.fetched("first"))
        service.expectGet("paris", throwing: ServiceError(.notFound, "gone"))
        service.expectGet("london", returning: RepositoryFixture.fetched("second"))

        let values = [
            try await service.get("london", ifChangedFrom: nil), try await service.get("london", ifChangedFrom: nil),
        ]
        .map { response -> String? in
            if case .fetched(let fetched) = response { fetched.value } else { nil }
        }

        #expect(values == ["first", "second"])
        await #expect(throws: ServiceError.self) { try await service.get("paris", ifChangedFrom: nil) }
        #expect(service.calls.count == 3)
    }
}
