import Foundation
import RDS

/// Shared inputs for the datastore tests.
enum DatastoreTestFixtures {
    /// A fixed instant, so entries compare equal across a round trip.
    static let storedAt = Date(timeIntervalSince1970: 1_767_225_600)

    /// An entry holding `value`, fresh for `ttl` seconds after ``storedAt``.
    static func entry<Value>(_ value: Value, ttl: TimeInterval = 60) -> CacheEntry<Value> {
        CacheEntry(value: value, storedAt: storedAt, expiresAt: storedAt + ttl)
    }

    /// A fresh, empty temporary folder; the caller removes it.
    static func makeTemporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("rds-datastore-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
