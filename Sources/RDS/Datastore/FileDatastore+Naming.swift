import Dispatch

extension FileDatastore {
    /// Where the entry of one key lives.
    struct Location: Sendable {
        /// The key's encoded bytes, stored in the file and compared on read.
        let keyBytes: [UInt8]
        /// The file's full path (the folder, `/`, `<hex digest>.entry`), hashed by its digest.
        let entryPath: EntryPath
        /// The queue that runs this key's blocking calls.
        let queue: DispatchQueue
        /// The key's bucket in ``FileDatastore/changesInFlight``.
        let bucket: Int

        /// The file's full path: the folder, `/`, `<hex digest>.entry`.
        var path: String { entryPath.path }

        /// `<hex digest>.entry`, the path's last component.
        var fileName: String {
            let utf8 = path.utf8
            let start = utf8.lastIndex(of: UInt8(ascii: "/")).map(utf8.index(after:)) ?? utf8.startIndex
            return String(Substring(utf8[start...]))
        }

        /// Context for errors: the file name only (a hash, so it reveals nothing of the key).
        var details: [String: String] { ["file": fileName] }
    }

    private static var entrySuffix: String { ".entry" }

    /// The location of a key being written (now, as held from here on): the one held for it in
    /// ``writtenLocations``, else made (see ``location(of:)``) and held from now on. An entry saved is renewed as it
    /// expires and is revalidated (at most once per ``revalidationWriteInterval``); reads use a held location too, but come from a far wider set
    /// of keys: one they make is held only when its file is missing (its answer is written next).
    /// - Throws: ``DatastoreError`` (`codingFailed`) when the key cannot be encoded.
    func writtenLocation(of key: Key) throws(DatastoreError) -> Location {
        let now = clock.now
        if let held = writtenLocations.locationNotingWrite(of: key, at: now) { return held }
        let location = try location(of: key)
        writtenLocations.hold(location, for: key, writtenAt: now)
        return location
    }

    /// The location of a key being read: the one held for it in ``writtenLocations``, else made
    /// (see ``location(of:)``) and not held (see ``writtenLocation(of:)``).
    /// - Throws: ``DatastoreError`` (`codingFailed`) when the key cannot be encoded.
    func readLocation(of key: Key) throws(DatastoreError) -> Location {
        if let held = writtenLocations.location(of: key) { return held }
        return try location(of: key)
    }

    /// Encodes `key` and derives its file's path (made in one piece: this runs on every read
    /// and save) and its queue.
    /// - Throws: ``DatastoreError`` (`codingFailed`) when the key cannot be encoded.
    func location(of key: Key) throws(DatastoreError) -> Location {
        let keyBytes: [UInt8]
        do {
            keyBytes = try key.encodedBytes()
        } catch {
            throw DatastoreError(.codingFailed, "Could not encode the key", inner: error)
        }
        let digest = hash(keyBytes)
        let queue = queues[Int(digest.first ?? 0) % queues.count]
        return Location(
            keyBytes: keyBytes, entryPath: EntryPath(Self.path(in: directoryPath, ofDigest: digest), digest: digest),
            queue: queue,
            bucket: FileChangesInFlight.bucket(ofDigest: digest))
    }

    /// `<directory>/<hex digest>.entry`, written through pointers with the digits from a table
    /// (every read of a key not written lately makes one).
    private static func path(in directory: String, ofDigest digest: [UInt8]) -> String {
        var directory = directory
        return directory.withUTF8 { folder in
            let suffix = entrySuffix.utf8
            let length = folder.count + 1 + digest.count * 2 + suffix.count
            return String(unsafeUninitializedCapacity: length) { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                if let folderBase = folder.baseAddress { base.initialize(from: folderBase, count: folder.count) }
                var next = base + folder.count
                next.initialize(to: UInt8(ascii: "/"))
                next += 1
                hexDigits.withUTF8Buffer { digits in
                    for byte in digest {
                        next.initialize(to: digits[Int(byte >> 4)])
                        (next + 1).initialize(to: digits[Int(byte & 0x0F)])
                        next += 2
                    }
                }
                for byte in suffix {
                    next.initialize(to: byte)
                    next += 1
                }
                return next - base
            }
        }
    }

    /// The lower-case hexadecimal digits, by value.
    private static var hexDigits: StaticString { "0123456789abcdef" }

    /// The index of the queue that runs the calls on the entry file `name` (the first byte of the
    /// key's digest chooses, as in ``location(of:)``).
    static func queueIndex(ofFileNamed name: String, queueCount: Int) -> Int {
        let digits = name.utf8.prefix(2)
        return Int(UInt8(String(decoding: digits, as: UTF8.self), radix: 16) ?? 0) % max(1, queueCount)
    }

    /// `true` for the names of the entry files this datastore writes: `<hex>.entry`.
    static func isEntryFileName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts[1] == "entry" && isHex(parts[0])
    }

    private static func isHex(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

}
