import Foundation
import RDS
import Testing

@testable import Gateway

/// The outbox journal file: framing, checksums, torn tails, rewriting (issue 11 §3).
struct WriteJournalTests {
    private static let key = ResourceKey(repository: "items", path: "/items/a")
    private static let element = Representation.write(
        .put, body: Array("milk".utf8), contentType: "text/plain", idempotencyKey: "k")
    private static let at = Date(timeIntervalSince1970: 1_767_225_600)

    private static func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID())/journal").path
    }

    private static func ids(_ records: [JournalRecord]) -> [String] {
        records.map { record in
            switch record {
            case .accepted(let id, _, _, _, _): "accepted \(id)"
            case .retired(let id): "retired \(id)"
            case .deadLettered(let id, let reason): "dead \(id) \(reason)"
            case .revived(let id): "revived \(id)"
            }
        }
    }

    @Test func records_ReadBack_InOrder_WithTheirContent() throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let (journal, empty) = try WriteJournal.open(path: path)
        #expect(empty.isEmpty)
        try journal.append([.accepted(id: 7, kind: .write, key: Self.key, element: Self.element, at: Self.at)])
        try journal.append([.deadLettered(id: 7, reason: "rejected: HTTP 409"), .revived(id: 7), .retired(id: 7)])

        let (_, records) = try WriteJournal.open(path: path)
        #expect(Self.ids(records) == ["accepted 7", "dead 7 rejected: HTTP 409", "revived 7", "retired 7"])
        guard case .accepted(_, let kind, let key, let element, let at) = records.first else {
            Issue.record("the first record is not an acceptance")
            return
        }
        #expect(kind == .write && key == Self.key && element == Self.element && at == Self.at)
    }

    @Test(arguments: [1, 5, 9, 20])
    func tornOrCorruptTail_IsCutOff_AndAppendsContinueAfterTheIntactRecords(damage: Int) throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let (journal, _) = try WriteJournal.open(path: path)
        try journal.append([.accepted(id: 1, kind: .delete, key: Self.key, element: Self.element, at: Self.at)])
        let intact = journal.size
        try journal.append([.retired(id: 1)])
        var bytes = try #require(FileManager.default.contents(atPath: path))
        if damage < bytes.count - intact {
            bytes = bytes.prefix(intact + damage)  // a write torn by a crash
        } else {
            bytes[bytes.count - 1] ^= 0xFF  // a flipped bit in the last record
        }
        try bytes.write(to: URL(fileURLWithPath: path))

        let (reopened, records) = try WriteJournal.open(path: path)
        #expect(Self.ids(records) == ["accepted 1"])
        #expect(reopened.size == intact)
        try reopened.append([.retired(id: 1)])
        #expect(Self.ids(try WriteJournal.open(path: path).1) == ["accepted 1", "retired 1"])
    }

    @Test func rewrite_KeepsOnlyTheGivenRecords() throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let (journal, _) = try WriteJournal.open(path: path)
        try journal.append([.accepted(id: 1, kind: .write, key: Self.key, element: Self.element, at: Self.at), .retired(id: 1)])
        try journal.rewrite([.revived(id: 2)])
        try journal.append([.retired(id: 2)])
        #expect(Self.ids(try WriteJournal.open(path: path).1) == ["revived 2", "retired 2"])
    }
}
