import Dispatch

extension FileDatastore {
    /// Removes the least recently written entry files until they fit the budget's target.
    static func evict(in directoryPath: String, budget: DiskBudget) {
        let files = (try? BlockingFileIO.fileInfos(inDirectory: directoryPath, where: isEntryFileName)) ?? []
        var usedBytes = files.reduce(0) { $0 + $1.size }
        var evicted = 0
        for file in files.sorted(by: { ($0.modified, $0.name) < ($1.modified, $1.name) }) {
            guard usedBytes > budget.targetBytes else { break }
            if (try? BlockingFileIO.removeFile(at: directoryPath + "/" + file.name)) != nil {
                usedBytes -= file.size
                evicted += 1
            }
        }
        budget.finishEviction(usedBytes: usedBytes, entries: files.count - evicted, evicted: evicted)
    }

    /// Runs blocking `work` on the queue of `location`'s key.
    func perform<Result: Sendable>(
        on location: Location, _ work: @escaping @Sendable () throws(DatastoreError) -> Result
    ) async throws -> Result {
        try await perform(on: location.queue, work)
    }

    /// Runs blocking `work` on `queue` and resumes the calling task with its outcome.
    func perform<Result: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable () throws(DatastoreError) -> Result
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                do {
                    continuation.resume(returning: try work())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
