import Foundation

extension FileDatastore {
    /// Calls `body` with the key and entry of each valid entry file (at most `limit`), read one
    /// at a time on the maintenance queue, so nothing but one entry is held at once. Unusable
    /// files are skipped (a later `get` removes them). Meant for start-up, e.g. to rebuild an
    /// index of what the disk holds.
    public func forEachStoredEntry(limit: Int, _ body: @escaping @Sendable (Key, CacheEntry<Value>) -> Void) async {
        let (path, maxEntryBytes) = (directoryPath, maxEntryBytes)
        _ = try? await perform(on: maintenanceQueue) { () throws(DatastoreError) -> Void in
            guard let files = try? BlockingFileIO.fileInfos(inDirectory: path, where: Self.isEntryFileName) else {
                return
            }
            for file in files.prefix(max(0, limit)) {
                guard
                    case .contents(let contents)? = try? BlockingFileIO.readEntryFile(
                        at: path + "/" + file.name, maxSize: maxEntryBytes, headerSize: FileEntryFormat.headerSize,
                        expectedSize: FileEntryFormat.fileSize(header:)),
                    let keyBytes = FileEntryFormat.keyBytes(in: contents),
                    case .entry(let stored) = FileEntryFormat.decode(contents, keyBytes: keyBytes),
                    let key = try? Key(decodingBytes: keyBytes), let value = try? Value(decodingBytes: stored.value)
                else { continue }
                body(key, stored.withValue(value))
            }
        }
    }
}
