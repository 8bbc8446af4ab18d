import Foundation
import HTTP1
import RDS

/// What the upstream's answers mean for a repository's outbox: which failures queue a write,
/// and how one delivery of a queued write ends (delivered, retried later, dead-lettered).
struct WriteDelivery: Sendable {
    /// The outbox delivered from.
    let outbox: WriteOutbox
    /// Counts replayed and dead-lettered writes.
    let metrics: WriteMetrics
    /// Makes the repository whose service and store a delivery uses.
    let makeRepository: @Sendable () -> Repository<ResourceKey, Representation>?

    /// `true` when the upstream could not take the write now, so it is queued: refused,
    /// unreachable, timed out, 502/503/504, or 429 with `Retry-After` (see ``retryAfter(_:)``).
    static func isTransient(_ error: any Error) -> Bool {
        ErrorChain(error).links.contains { link in
            switch link.code {
            case ServiceError.Kind.unavailable.rawValue, ServiceError.Kind.timeout.rawValue: true
            case ServiceError.Kind.badResponse.rawValue: ["502", "503", "504"].contains(link.details["status"] ?? "")
            default: false
            }
        }
    }

    /// For a 429 answer with `Retry-After` (seconds): the seconds to wait; `nil` otherwise.
    static func retryAfter(_ reply: Representation?) -> TimeInterval? {
        guard let reply, reply.status == 429 else { return nil }
        return seconds(reply.headers["Retry-After"])
    }

    /// A `Retry-After` field in seconds (the delay-seconds form, RFC 9110 §10.2.3).
    private static func seconds(_ field: String?) -> TimeInterval? {
        field.flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Delivers `write` once: success publishes one `loaded(origin: write)` and retires it; a
    /// failure, a 429 or a 5xx reschedules it with backoff (honouring `Retry-After`); a 4xx
    /// dead-letters it, publishes its write state `failed` and fetches the source's value again;
    /// a write older than `maxAge` is dead-lettered as expired.
    func deliver(_ write: QueuedWrite) async {
        guard let repository = makeRepository() else { return }
        let now = repository.store.clock.now
        if now.timeIntervalSince(write.acceptedAt) > outbox.settings.maxAge {
            let error = ServiceError(
                .unavailable, "The queued write expired after \(Int(outbox.settings.maxAge)) s without delivery",
                details: ["path": write.key.path])
            return await deadLetter(write, reason: "expired", error: error, in: repository)
        }
        let result: WriteResult<Representation>
        do {
            result = try await repository.sendWrite(write.kind, element: write.element, for: write.key)
        } catch {
            let waited = Self.seconds(UpstreamReply.find(in: error)?.representation.headers["Retry-After"])
            return retry(write, waited, reason: ErrorChain(error).links.map(\.code).joined(separator: " > "))
        }
        let status = result.reply?.status ?? 204
        if status == 429 || status == 408 {
            return retry(write, Self.retryAfter(result.reply), reason: "HTTP \(status)")
        }
        if (400..<500).contains(status) {
            let error = ServiceError(
                .rejected, "The upstream refused the queued write (HTTP \(status))",
                details: ["status": String(status), "path": write.key.path],
                inner: result.reply.map(UpstreamReply.init))
            return await deadLetter(write, reason: "rejected: HTTP \(status)", error: error, in: repository)
        }
        // Retired first: once subscribers see the write's `loaded`, the outbox no longer holds it.
        if await outbox.retire(write.id) {
            outbox.log("write_replayed", write)
            metrics.recordReplay(repository: outbox.repository, waited: now.timeIntervalSince(write.acceptedAt))
        }
        await repository.finishWrite(write.kind, element: write.element, for: write.key, result: result)
    }

    private func retry(_ write: QueuedWrite, _ retryAfter: TimeInterval?, reason: String) {
        let delay = outbox.backoff(attempts: write.attempts, retryAfter: retryAfter)
        outbox.reschedule(write.id, after: delay, error: reason)
        outbox.log("write_retry_scheduled", write, reason: reason)
    }

    private func deadLetter(
        _ write: QueuedWrite, reason: String, error: ServiceError, in repository: Repository<ResourceKey, Representation>
    ) async {
        guard await outbox.deadLetter(write.id, reason: reason) else { return }
        outbox.log("write_dead_lettered", write, reason: reason)
        metrics.record(.deadLettered, repository: outbox.repository)
        _ = repository.failWrite(write.kind, element: write.element, for: write.key, error: error)
        try? await repository.purge(write.key)
        repository.refreshInBackground(write.key)
    }
}
