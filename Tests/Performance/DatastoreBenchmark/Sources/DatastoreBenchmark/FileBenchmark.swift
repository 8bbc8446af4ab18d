import Foundation
import RDS

/// FileDatastore: save, rewrite and get of 1 KB entries in a temporary folder, as rates and as
/// CPU time per operation (the process's, every thread: the I/O queues and the system calls).
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

        /// Saves every key once (`round` varies the value), `tasks` tasks at a time.
        @Sendable func saveAll(round: Int) async throws {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        for index in (task * perTask)..<((task + 1) * perTask) {
                            let value = [UInt8](repeating: UInt8(truncatingIfNeeded: index + round), count: valueSize)
                            try await store.save(
                                CacheEntry(value: value, storedAt: storedAt, expiresAt: storedAt + 60), for: keys[index]
                            )
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let operations = perTask * tasks
        var saves = (rate: 0.0, cpu: 0.0)
        saves.cpu = try await Measurement.cpuMicroseconds(operations: operations) {
            saves.rate = try await Measurement.rate(operations: operations) { try await saveAll(round: 0) }
        }
        var rewrites = (rate: 0.0, cpu: 0.0)
        rewrites.cpu = try await Measurement.cpuMicroseconds(operations: operations) {
            rewrites.rate = try await Measurement.rate(operations: operations) { try await saveAll(round: 1) }
        }
        var hits = 0
        var gets = (rate: 0.0, cpu: 0.0)
        gets.cpu = try await Measurement.cpuMicroseconds(operations: operations) {
            gets.rate = try await Measurement.rate(operations: operations) {
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
        }
        print("FileDatastore: \(operations) entries x \(valueSize) B, \(tasks) concurrent tasks")
        for (name, measured, what) in [
            ("save (new key)", saves, "creates the file"), ("save (rewrite)", rewrites, "replaces the file's entry"),
            ("get", gets, "read + CRC-32 + key check; \(hits) hits"),
        ] {
            let rate = Measurement.grouped(measured.rate)
            print("  \(name.padding(toLength: 17, withPad: " ", startingAt: 0)) \(rate) ops/s, "
                + "\(String(format: "%.1f", measured.cpu)) µs CPU each  (\(what))")
        }
    }
}
