/// What an ``IdempotencyLedger`` says about a write carrying an `Idempotency-Key`.
enum IdempotencyClaim: Sendable, Equatable {
    /// The key is new (or expired): the write goes ahead, and the key is held until
    /// ``IdempotencyLedger/complete(_:fingerprint:answer:)``.
    case claimed
    /// The same request was answered before: replay this answer.
    case replay(Representation)
    /// The same request is still being processed (409).
    case inFlight
    /// The key was used for a different request (422).
    case mismatch
}
