import Foundation
import HTTP1
import RDS
import Synchronization

/// The `Idempotency-Key`s of one repository (draft-ietf-httpapi-idempotency-key-header): each
/// with the fingerprint of its request and the answer given, for ``retention`` seconds.
///
/// A write with a new key claims it (``claim(_:fingerprint:)``) until it completes; a retry with
/// the same request while it runs is ``IdempotencyClaim/inFlight``, afterwards it gets the stored
/// answer; the same key with another request is a ``IdempotencyClaim/mismatch``. Records live in
/// memory (at most `maxKeys`) and, when given a folder, on disk too, so they survive a restart.
/// Claims themselves are not persisted: a write interrupted by a crash can be retried.
final class IdempotencyLedger: Sendable {
    /// How long an answer is remembered, in seconds.
    let retention: TimeInterval
    private let datastore: any Datastore<String, IdempotencyRecord>
    private let clock: any ClockProvider
    private let logger: any Logger
    /// The keys being processed, with the fingerprint of their request.
    private let claims = Mutex<[String: String]>([:])

    /// The most bytes the memory level holds.
    static let maxMemoryBytes = 16 << 20
    /// The most bytes the disk level holds.
    static let maxDiskBytes = 256 << 20

    /// Creates a ledger.
    /// - Parameters:
    ///   - retention: Seconds an answer is remembered.
    ///   - maxKeys: The most keys kept in memory.
    ///   - folder: Where records are also kept on disk, if anywhere; a folder that cannot be
    ///     opened leaves the ledger in memory only (logged).
    ///   - clock: The time source.
    ///   - logger: Receives disk failures.
    init(retention: TimeInterval, maxKeys: Int, folder: URL?, clock: any ClockProvider, logger: any Logger) {
        let memory = MemoryDatastore<String, IdempotencyRecord>(
            maxBytes: Self.maxMemoryBytes, maxEntries: max(1, maxKeys))
        var datastore: any Datastore<String, IdempotencyRecord> = memory
        if let folder {
            do {
                let disk = try FileDatastore<String, IdempotencyRecord>(directory: folder, maxBytes: Self.maxDiskBytes)
                datastore = TwoLevelDatastore(l1: memory, l2: disk, logger: logger)
            } catch {
                logger.log(.error, "idempotency_disk_unavailable", ["path": .string(folder.path)])
            }
        }
        self.retention = retention
        self.datastore = datastore
        self.clock = clock
        self.logger = logger
    }

    /// Claims `key` for a request with `fingerprint`, or says why not.
    func claim(_ key: String, fingerprint: String) async -> IdempotencyClaim {
        let busy: IdempotencyClaim? = claims.withLock { claims in
            if let running = claims[key] { return running == fingerprint ? .inFlight : .mismatch }
            claims[key] = fingerprint
            return nil
        }
        if let busy { return busy }
        guard let entry = try? await datastore.get(key), entry.isFresh(at: clock.now) else { return .claimed }
        release(key)
        return entry.value.fingerprint == fingerprint ? .replay(entry.value.answer) : .mismatch
    }

    /// Ends the claim of `key`, remembering `answer` for ``retention`` seconds when given (a
    /// write that failed before the upstream answered is not remembered, so it can be retried).
    func complete(_ key: String, fingerprint: String, answer: Representation?) async {
        if let answer {
            let now = clock.now
            let entry = CacheEntry(
                value: IdempotencyRecord(fingerprint: fingerprint, answer: answer), storedAt: now,
                expiresAt: now.addingTimeInterval(retention))
            do {
                try await datastore.save(entry, for: key)
            } catch {
                logger.log(
                    .warning, "idempotency_save_failed",
                    ["error": .string(ErrorChain(error).links.map(\.code).joined(separator: " > "))])
            }
        }
        release(key)
    }

    private func release(_ key: String) {
        _ = claims.withLock { $0.removeValue(forKey: key) }
    }

    /// The key of an `Idempotency-Key` field: a Structured Field string (`"…"`, RFC 8941 §3.3.3)
    /// or, leniently, a bare token; 1 to 255 visible ASCII characters. `nil` when malformed.
    static func key(parsing field: String) -> String? {
        var value = Substring(field.trimmingCharacters(in: .whitespaces))
        if value.first == "\"" {
            guard value.count >= 2, value.last == "\"" else { return nil }
            value = value.dropFirst().dropLast()
            guard !value.contains("\\") else { return nil }
        }
        guard (1...255).contains(value.utf8.count), value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return nil
        }
        return String(value)
    }

    /// The fingerprint of a write: the hex SHA-256 of its method, target, `Content-Type` and body.
    static func fingerprint(method: HTTPMethod, target: String, contentType: String?, body: [UInt8]) -> String {
        var bytes: [UInt8] = []
        for part in [method.rawValue, target, contentType ?? ""] {
            bytes += Array(String(part.utf8.count).utf8) + [0x3A] + Array(part.utf8)
        }
        return SHA256.digest(bytes + body).map { String(format: "%02x", $0) }.joined()
    }
}
