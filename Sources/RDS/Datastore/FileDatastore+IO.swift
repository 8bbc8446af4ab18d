import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileDatastore {
    /// Removes the least recently written entry files until they fit the budget's target, in
    /// passes over a fresh listing while saves made meanwhile keep them past `maxBytes`
    /// (``DiskBudget/finishEviction(evicted:)``). Runs on the maintenance queue; each file is
    /// removed (and counted) on its key's queue, so the eviction never races with a save or
    /// delete of the same file.
    static func evict(in directoryPath: String, budget: DiskBudget, queues: [DispatchQueue]) {
        var evicted: Int
        repeat {
            evicted = 0
            let files = (try? BlockingFileIO.fileInfos(inDirectory: directoryPath, where: isEntryFileName)) ?? []
            for file in files.sorted(by: { ($0.modified, $0.name) < ($1.modified, $1.name) }) {
                guard budget.usedBytes > budget.targetBytes else { break }
                queues[queueIndex(ofFileNamed: file.name, queueCount: queues.count)].sync {
                    if (try? remove(directoryPath + "/" + file.name, counted: true, in: budget)) == true { evicted += 1 }
                }
            }
        } while budget.finishEviction(evicted: evicted)
    }

    /// Removes whatever is at `path` (a folder named like an entry included); when `counted` (an
    /// entry file), a regular file's size is taken off `budget`.
    /// - Returns: `true` when a regular file was removed.
    /// - Throws: ``FileSystemError`` when it could not be removed.
    @discardableResult
    static func remove(_ path: String, counted: Bool, in budget: DiskBudget) throws(FileSystemError) -> Bool {
        switch BlockingFileIO.item(at: path) {
        case .none:
            return false
        case .other:
            guard BlockingFileIO.removeAnything(at: path) else { throw .current("remove") }
            return false
        case .file(let size):
            try BlockingFileIO.removeFile(at: path)
            if counted { budget.recordRemoval(size) }
            return true
        }
    }

    /// Re-measures the entry files into `budget` while every one of `queues` is held, so that no
    /// save or delete is under way (half counted) during the scan. Runs on the maintenance queue.
    static func remeasure(in directoryPath: String, budget: DiskBudget, queues: ArraySlice<DispatchQueue>) {
        guard let queue = queues.first else {
            let files = (try? BlockingFileIO.fileInfos(inDirectory: directoryPath, where: isEntryFileName)) ?? []
            budget.reset(usedBytes: files.reduce(0) { $0 + $1.size }, entries: files.count)
            return
        }
        queue.sync { remeasure(in: directoryPath, budget: budget, queues: queues.dropFirst()) }
    }

    /// Writes `contents` as the entry file at `path`, rewriting an existing file in place
    /// (``BlockingFileIO/overwrite(_:with:previousSize:)``), and counts the change in `budget`.
    /// When the folder was removed, recreates it and writes again; the caller must then re-measure
    /// the folder (``remeasure(in:budget:queues:)``), since the files it counted are gone.
    /// - Returns: Whether the caller must evict now (see ``DiskBudget/recordWrite(_:isNewFile:)``),
    ///   and whether the folder was recreated.
    /// - Throws: ``FileSystemError``; a file the write may have torn is removed (and its previous
    ///   size taken off `budget`), so the key reads as a miss.
    static func write(
        _ contents: [UInt8], to path: String, in directoryPath: String, budget: DiskBudget
    ) throws(FileSystemError) -> (mustEvict: Bool, recreatedFolder: Bool) {
        let file: (descriptor: Int32, previousSize: Int?)
        var recreatedFolder = false
        do throws(FileSystemError) {
            file = try BlockingFileIO.openForRewrite(at: path)
        } catch where error.errorNumber == ENOENT && BlockingFileIO.createFolder(at: directoryPath) {
            file = try BlockingFileIO.openForRewrite(at: path)
            recreatedFolder = true
        }
        do throws(FileSystemError) {
            try BlockingFileIO.overwrite(file.descriptor, with: contents, previousSize: file.previousSize)
        } catch {
            if BlockingFileIO.removeAnything(at: path), let previousSize = file.previousSize {
                budget.recordRemoval(previousSize)
            }
            throw error
        }
        let previousSize = file.previousSize
        let mustEvict = budget.recordWrite(contents.count - (previousSize ?? 0), isNewFile: previousSize == nil)
        return (mustEvict, recreatedFolder)
    }

    /// Removes everything in the folder at `path` that is not an entry file (temporary files of
    /// older versions, foreign files, folders and links named like entries) and returns the
    /// entry files, for opening.
    /// - Throws: ``FileSystemError`` when the folder cannot be listed.
    static func removeAllButEntryFiles(in path: String) throws(FileSystemError) -> [BlockingFileIO.FileInfo] {
        let entries = try BlockingFileIO.fileInfos(inDirectory: path, where: isEntryFileName)
        let keep = Set(entries.map(\.name))
        for name in try BlockingFileIO.fileNames(inDirectory: path) where !keep.contains(name) {
            BlockingFileIO.removeAnything(at: path + "/" + name)
        }
        return entries
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
