import RDS

/// What an ``IdempotencyLedger`` remembers of one write: the fingerprint of its request and the
/// answer the client got.
struct IdempotencyRecord: Sendable, Equatable {
    /// The hex SHA-256 of the request (see ``IdempotencyLedger/fingerprint(method:target:contentType:body:)``).
    let fingerprint: String
    /// The answer, replayed to a retry.
    let answer: Representation
}

extension IdempotencyRecord: ByteCounted {
    /// The answer's size plus the fingerprint.
    var byteCount: Int { answer.byteCount + fingerprint.utf8.count }
}

extension IdempotencyRecord: DatastoreCodable {
    /// The fingerprint's length, the fingerprint, then the encoded answer.
    func encodedBytes() throws -> [UInt8] {
        let fingerprint = Array(fingerprint.utf8)
        return [UInt8(fingerprint.count)] + fingerprint + (try answer.encodedBytes())
    }

    /// Decodes ``encodedBytes()``.
    /// - Throws: ``DatastoreError`` (`codingFailed`) for truncated or foreign bytes.
    init(decodingBytes bytes: [UInt8]) throws {
        guard let length = bytes.first.map(Int.init), bytes.count > length,
            let fingerprint = String(validating: bytes[1...length], as: UTF8.self)
        else { throw DatastoreError(.codingFailed, "The stored idempotency record is truncated") }
        self.fingerprint = fingerprint
        self.answer = try Representation(decodingBytes: Array(bytes[(length + 1)...]))
    }
}
