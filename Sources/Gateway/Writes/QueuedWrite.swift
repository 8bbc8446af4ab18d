import Foundation
import RDS

/// One write accepted into a repository's ``WriteOutbox``: what to send, and how its delivery goes.
struct QueuedWrite: Sendable {
    /// The write's id, unique in its repository, increasing in the order writes were accepted.
    let id: UInt64
    /// Persisting or deleting.
    let kind: WriteKind
    /// The resource.
    let key: ResourceKey
    /// What to send (method, body, `Content-Type`, `Idempotency-Key`).
    let element: Representation
    /// When the gateway acknowledged it.
    let acceptedAt: Date
    /// The delivery attempts so far.
    var attempts = 0
    /// When the next attempt may start.
    var nextAttemptAt: Date
    /// Why the last attempt failed, if it did.
    var lastError: String?
    /// Why it was dead-lettered; `nil` while it is pending.
    var deadReason: String?

    /// `true` once dead-lettered.
    var isDead: Bool { deadReason != nil }

    /// The write as JSON for the admin API (never with the body, only its excerpt).
    func jsonObject(repository: String) -> [String: Any] {
        var object: [String: Any] = [
            "id": String(id), "kind": kind.rawValue, "path": key.path + (key.query.isEmpty ? "" : "?" + key.query),
            "acceptedAt": acceptedAt.formatted(.iso8601), "attempts": attempts,
            "status": isDead ? "dead" : "pending", "element": WrittenElement(element).jsonObject,
            "location": "/admin/repositories/\(repository)/writes/\(id)",
        ]
        if !isDead { object["nextAttemptAt"] = nextAttemptAt.formatted(.iso8601) }
        object["lastError"] = lastError
        object["deadReason"] = deadReason
        return object
    }
}
