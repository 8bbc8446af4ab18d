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
    private static var temporarySuffix: String { ".tmp" }

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

    /// The index of the queue that runs the calls on the file `name` (an entry or temporary file
    /// name; the first byte of the key's digest chooses, as in ``location(of:)``).
    static func queueIndex(ofFileNamed name: String, queueCount: Int) -> Int {
        let digits = name.utf8.drop { $0 == UInt8(ascii: ".") }.prefix(2)
        return Int(UInt8(String(decoding: digits, as: UTF8.self), radix: 16) ?? 0) % max(1, queueCount)
    }

    /// A fresh hidden name next to the entry: `.<entry name>.<random hex>.tmp`.
    func temporaryPath(for location: Location) -> String {
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        return directoryPath + "/." + location.fileName + "." + random + Self.temporarySuffix
    }

    /// `true` for names this datastore writes: `<hex>.entry` and `.<hex>.entry.<hex>.tmp`.
    static func isOwnedFileName(_ name: String) -> Bool {
        var parts = name.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 2 {
            return parts[1] == "entry" && isHex(parts[0])
        }
        guard parts.count == 5, parts.removeFirst().isEmpty else { return false }
        return parts[1] == "entry" && parts[3] == "tmp" && isHex(parts[0]) && isHex(parts[2])
    }

    /// `true` for the entry files this datastore writes (not its temporary files).
    static func isEntryFileName(_ name: String) -> Bool {
        name.hasSuffix(entrySuffix) && isOwnedFileName(name)
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
