import Foundation
import RDS
import RDSTesting
import Testing

@testable import Gateway

/// The `Idempotency-Key` ledger of a repository (issue 11 §2), on a manual clock.
@Suite(.timeLimit(.minutes(1)))
struct IdempotencyLedgerTests {
    private let clock = ManualClock()
    private static let answer = Representation(status: 201, headers: ["Content-Type": "text/plain"], body: [0x6F, 0x6B])

    private func ledger(folder: URL? = nil, retention: TimeInterval = 60) -> IdempotencyLedger {
        IdempotencyLedger(retention: retention, maxKeys: 100, folder: folder, clock: clock, logger: RecordingLogger())
    }

    @Test func claim_IsInFlightForTheSameRequest_AndMismatchForAnother_UntilCompleted() async {
        let ledger = ledger()
        #expect(await ledger.claim("k", fingerprint: "a") == .claimed)
        #expect(await ledger.claim("k", fingerprint: "a") == .inFlight)
        #expect(await ledger.claim("k", fingerprint: "b") == .mismatch)
        await ledger.complete("k", fingerprint: "a", answer: Self.answer)
        #expect(await ledger.claim("k", fingerprint: "a") == .replay(Self.answer))
        #expect(await ledger.claim("k", fingerprint: "b") == .mismatch)
    }

    @Test func completeWithoutAnswer_LetsTheRequestBeRetried() async {
        let ledger = ledger()
        #expect(await ledger.claim("k", fingerprint: "a") == .claimed)
        await ledger.complete("k", fingerprint: "a", answer: nil)
        #expect(await ledger.claim("k", fingerprint: "b") == .claimed)
    }

    @Test func answer_IsForgottenAfterTheRetention() async {
        let ledger = ledger(retention: 60)
        _ = await ledger.claim("k", fingerprint: "a")
        await ledger.complete("k", fingerprint: "a", answer: Self.answer)
        clock.advance(by: 59)
        #expect(await ledger.claim("k", fingerprint: "a") == .replay(Self.answer))
        clock.advance(by: 1)
        #expect(await ledger.claim("k", fingerprint: "b") == .claimed)
    }

    @Test func answer_SurvivesANewLedgerOnTheSameFolder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = ledger(folder: folder)
        _ = await first.claim("k", fingerprint: "a")
        await first.complete("k", fingerprint: "a", answer: Self.answer)

        let second = ledger(folder: folder)
        #expect(await second.claim("k", fingerprint: "a") == .replay(Self.answer))
        #expect(await second.claim("k", fingerprint: "b") == .mismatch)
    }

    @Test(arguments: [
        ("\"8e03978e-40d5-43e8-bc93-6894a57f9324\"", "8e03978e-40d5-43e8-bc93-6894a57f9324"),
        ("abc", "abc"), (" \"x\" ", "x"), ("\"\"", nil), ("\"a b\"", nil), ("\"unterminated", nil),
        (String(repeating: "k", count: 256), nil),
    ] as [(String, String?)])
    func key_ParsesAStructuredFieldStringOrAToken(field: String, key: String?) {
        #expect(IdempotencyLedger.key(parsing: field) == key)
    }

    @Test func fingerprint_DiffersByMethodTargetTypeAndBody() {
        let base = IdempotencyLedger.fingerprint(method: .put, target: "/a", contentType: "text/plain", body: [1])
        #expect(base.count == 64)
        #expect(base == IdempotencyLedger.fingerprint(method: .put, target: "/a", contentType: "text/plain", body: [1]))
        #expect(base != IdempotencyLedger.fingerprint(method: .post, target: "/a", contentType: "text/plain", body: [1]))
        #expect(base != IdempotencyLedger.fingerprint(method: .put, target: "/b", contentType: "text/plain", body: [1]))
        #expect(base != IdempotencyLedger.fingerprint(method: .put, target: "/a", contentType: nil, body: [1]))
        #expect(base != IdempotencyLedger.fingerprint(method: .put, target: "/a", contentType: "text/plain", body: [2]))
    }

    @Test func record_RoundTripsThroughItsEncoding() throws {
        let record = IdempotencyRecord(fingerprint: String(repeating: "f", count: 64), answer: Self.answer)
        #expect(try IdempotencyRecord(decodingBytes: record.encodedBytes()) == record)
        #expect(throws: DatastoreError.self) { try IdempotencyRecord(decodingBytes: [200, 1, 2]) }
    }
}
