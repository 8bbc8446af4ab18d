import Foundation
import RDS

/// MemoryDatastore: resident memory of the entries, then get and save rates on two tasks.
enum MemoryBenchmark {
    static let entryCount = 100_000
    static let valueSize = 1_024
    static let operationsPerTask = 1_000_000
    static let tasks = 2

    static func run() async {
        let keys = (0..<entryCount).map { "key-" + String($0) }
        let before = Measurement.residentBytes() ?? 0
        let store = MemoryDatastore<String, [UInt8]>(maxBytes: 1 << 40, maxEntries: entryCount)
        let storedAt = Date()
        for (index, key) in keys.enumerated() {
            let value = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: valueSize)
            await store.save(CacheEntry(value: value, storedAt: storedAt, expiresAt: storedAt + 60), for: key)
        }
        let after = Measurement.residentBytes() ?? 0
        let payload = entryCount * valueSize
        let resident = after - before
        let statistics = store.statistics
        print("MemoryDatastore: \(entryCount) entries x \(valueSize) B")
        print("  payload            \(Measurement.mebibytes(payload))")
        print("  resident (VmRSS)   \(Measurement.mebibytes(resident))  = \(ratio(resident, payload)) x payload")
        print("  accounted bytes    \(Measurement.mebibytes(statistics.bytes))  (\(statistics.entries) entries)")

        var hits = 0
        let gets = await Measurement.rate(operations: tasks * operationsPerTask) {
            await withTaskGroup(of: Int.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        var hits = 0
                        for step in 0..<operationsPerTask {
                            let key = keys[(step &* 7_919 &+ task &* 31) % entryCount]
                            if await store.get(key) != nil { hits += 1 }
                        }
                        return hits
                    }
                }
                hits = await group.reduce(0, +)
            }
        }
        print("  get                \(Measurement.grouped(gets)) ops/s  (\(tasks) tasks; \(hits) hits)")

        let peeks = await Measurement.rate(operations: tasks * operationsPerTask) {
            DispatchQueue.concurrentPerform(iterations: tasks) { task in
                for step in 0..<operationsPerTask {
                    _ = store.peek(keys[(step &* 7_919 &+ task &* 31) % entryCount])
                }
            }
        }
        print("  peek (sync)        \(Measurement.grouped(peeks)) ops/s  (\(tasks) threads)")

        let values = (0..<1_000).map { [UInt8](repeating: UInt8(truncatingIfNeeded: $0), count: valueSize) }
        let saves = await Measurement.rate(operations: tasks * operationsPerTask) {
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        for step in 0..<operationsPerTask {
                            let key = keys[(step &* 7_919 &+ task &* 31) % entryCount]
                            let entry = CacheEntry(
                                value: values[step % values.count], storedAt: storedAt, expiresAt: storedAt + 60)
                            await store.save(entry, for: key)
                        }
                    }
                }
            }
        }
        print("  save               \(Measurement.grouped(saves)) ops/s  (\(tasks) tasks, replacing entries)")
    }

    private static func ratio(_ part: Int, _ whole: Int) -> String {
        String(format: "%.2f", Double(part) / Double(whole))
    }
}
