import RDS

/// The outbox of a repository holds `maxPending` writes: a write that would queue is refused (503).
struct OutboxFullError: ChainedError, Sendable {
    /// The repository.
    let repository: String
    /// The bound reached.
    let maxPending: Int

    /// `outbox_full`
    var code: String { "outbox_full" }
    /// What happened.
    var message: String { "The write queue of \(repository) is full (\(maxPending) writes pending)" }
    /// The repository and the bound.
    var details: [String: String] { ["repository": repository, "maxPending": String(maxPending)] }
    /// Nothing.
    var inner: (any Error)? { nil }
}
