import Foundation

extension FileDatastore {
    /// Calls `body` with the key and entry of each valid entry file (at most `limit`), read one
    /// at a time from the maintenance queue, so nothing but one entry is held at once; each file
    /// is read on its key's queue, never while a save rewrites it. Unusable files are skipped (a
    /// later `get` removes them). Meant for start-up, e.g. to rebuild an index of what the disk holds.
    public func forEachStoredEntry(limit: Int, _ body: @escaping @Sendable (Key, CacheEntry<Value>) -> Void) async {
        let (path, maxEntryBytes, queues) = (directoryPath, maxEntryBytes, queues)
        _ = try? await perform(on: maintenanceQueue) { () throws(DatastoreError) -> Void in
            guard let files = try? BlockingFileIO.fileInfos(inDirectory: path, where: Self.isEntryFileName) else {
                return
            }
            for file in files.prefix(max(0, limit)) {
                let read = queues[Self.queueIndex(ofFileNamed: file.name, queueCount: queues.count)].sync {
                    try? BlockingFileIO.readEntryFile(
                        at: path + "/" + file.name, maxSize: maxEntryBytes, headerSize: FileEntryFormat.headerSize,
                        expectedSize: FileEntryFormat.fileSize(header:))
                }
                guard
                    case .contents(let contents)? = read,
                    let keyBytes = FileEntryFormat.keyBytes(in: contents),
                    case .entry(let stored) = FileEntryFormat.decode(contents, keyBytes: keyBytes),
                    let key = try? Key(decodingBytes: keyBytes), let value = try? Value(decodingBytes: stored.value)
                else { continue }
                body(key, stored.withValue(value))
            }
        }
    }
}
