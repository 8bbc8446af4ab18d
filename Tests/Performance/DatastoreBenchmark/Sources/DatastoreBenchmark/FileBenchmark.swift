import Foundation
import RDS

/// FileDatastore: save and get rates for 1 KB entries in a temporary folder.
enum FileBenchmark {
    static let entryCount = 5_000
    static let valueSize = 1_024
    static let tasks = 8

    static func run() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("rds-datastore-bench-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try FileDatastore<String, [UInt8]>(directory: folder)
        let keys = (0..<entryCount).map { "/weather/city-" + String($0) }
        let storedAt = Date()
        let perTask = entryCount / tasks

        let saves = try await Measurement.rate(operations: perTask * tasks) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        for index in (task * perTask)..<((task + 1) * perTask) {
                            let value = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: valueSize)
                            try await store.save(
                                CacheEntry(value: value, storedAt: storedAt, expiresAt: storedAt + 60), for: keys[index]
                            )
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        var hits = 0
        let gets = try await Measurement.rate(operations: perTask * tasks) {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        var hits = 0
                        for index in (task * perTask)..<((task + 1) * perTask) {
                            if try await store.get(keys[index])?.value.count == valueSize { hits += 1 }
                        }
                        return hits
                    }
                }
                hits = try await group.reduce(0, +)
            }
        }
        print("FileDatastore: \(perTask * tasks) entries x \(valueSize) B, \(tasks) concurrent tasks")
        print("  save               \(Measurement.grouped(saves)) ops/s  (temp file + rename each)")
        print("  get                \(Measurement.grouped(gets)) ops/s  (read + CRC-32 + key check each; \(hits) hits)")
    }
}
