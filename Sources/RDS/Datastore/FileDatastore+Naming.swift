import Dispatch

extension FileDatastore {
    /// Where the entry of one key lives.
    struct Location: Sendable {
        /// The key's encoded bytes, stored in the file and compared on read.
        let keyBytes: [UInt8]
        /// `<hex digest>.entry`.
        let fileName: String
        /// The file's full path.
        let path: String
        /// The queue that runs this key's blocking calls.
        let queue: DispatchQueue
        /// The key's bucket in ``FileDatastore/changesInFlight``.
        let bucket: Int

        /// Context for errors: the file name only (a hash, so it reveals nothing of the key).
        var details: [String: String] { ["file": fileName] }
    }

    private static var entrySuffix: String { ".entry" }

    /// Encodes `key` and derives its file name, path and queue.
    /// - Throws: ``DatastoreError`` (`codingFailed`) when the key cannot be encoded.
    func location(of key: Key) throws(DatastoreError) -> Location {
        let keyBytes: [UInt8]
        do {
            keyBytes = try key.encodedBytes()
        } catch {
            throw DatastoreError(.codingFailed, "Could not encode the key", inner: error)
        }
        let digest = hash(keyBytes)
        let fileName = Self.hex(digest) + Self.entrySuffix
        let queue = queues[Int(digest.first ?? 0) % queues.count]
        return Location(
            keyBytes: keyBytes, fileName: fileName, path: directoryPath + "/" + fileName, queue: queue,
            bucket: FileChangesInFlight.bucket(ofDigest: digest))
    }

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

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
