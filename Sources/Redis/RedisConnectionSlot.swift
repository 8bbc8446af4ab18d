import Dispatch
import Synchronization

/// One pooled connection and the commands waiting for it.
///
/// Callers queue pipelines from any task; the slot's serial `DispatchQueue` takes every waiting
/// pipeline at once, writes them in one `send` and reads the replies in order, so concurrent
/// callers share round trips. Blocking I/O runs on that queue, never on the Swift concurrency
/// pool, and no lock is held across it. A failure (I/O, timeout, broken reply) closes the connection and fails the
/// pipelines of that round; the next one reconnects, after a backoff that doubles from 50 ms to 2 s while
/// Redis stays down. During the backoff commands fail at once (`unavailable`), so a dead Redis
/// costs callers nothing but the check.
final class RedisConnectionSlot: @unchecked Sendable {
    private struct Request {
        var commands: [RedisCommand]
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<[RESPValue], any Error>
    }

    private struct Pending {
        var requests: [Request] = []
        var isScheduled = false
        var retryAt: ContinuousClock.Instant?
        var backoff: Duration = .zero
        var lastError: RedisError?
    }

    private let configuration: RedisConfiguration
    private let queue: DispatchQueue
    private let pending = Mutex(Pending())
    /// Touched on `queue` only.
    private var connection: RedisConnection?
    private let onConnect: @Sendable (Int) -> Void
    private static let minimumBackoff = Duration.milliseconds(50)
    private static let maximumBackoff = Duration.seconds(2)

    /// A slot that connects on first use.
    /// - Parameter onConnect: Called on the slot's queue with the protocol version after every
    ///   successful (re)connect.
    init(configuration: RedisConfiguration, label: String, onConnect: @escaping @Sendable (Int) -> Void) {
        self.configuration = configuration
        queue = DispatchQueue(label: label)
        self.onConnect = onConnect
    }

    /// Sends `commands` as one pipeline and returns their replies (error replies included).
    /// - Parameter extraTime: Added to the command timeout (for `XREAD BLOCK`).
    /// - Throws: ``RedisError``: `unavailable` (down or backing off), `timeout`, `protocolError`, `overloaded`.
    func send(_ commands: [RedisCommand], extraTime: Duration = .zero) async throws -> [RESPValue] {
        try await withCheckedThrowingContinuation { continuation in
            let now = ContinuousClock.now
            let request = Request(commands: commands, deadline: now + configuration.commandTimeout + extraTime,
                continuation: continuation)
            let refusal: RedisError? = pending.withLock { pending in
                if let retryAt = pending.retryAt, now < retryAt {
                    return pending.lastError.map { RedisError(.unavailable, $0.message) }
                        ?? RedisError(.unavailable, "Redis is unavailable.")
                }
                guard pending.requests.count < configuration.maxQueuedCommands else {
                    return RedisError(.overloaded, "Too many Redis commands are waiting.")
                }
                pending.requests.append(request)
                if pending.isScheduled { return nil }
                pending.isScheduled = true
                queue.async { [self] in drain() }
                return nil
            }
            if let refusal { continuation.resume(throwing: refusal) }
        }
    }

    private func drain() {
        while true {
            let batch = pending.withLock { pending in
                let batch = pending.requests
                pending.requests.removeAll(keepingCapacity: true)
                if batch.isEmpty { pending.isScheduled = false }
                return batch
            }
            if batch.isEmpty { return }
            run(batch)
        }
    }

    private func run(_ batch: [Request]) {
        do {
            let open = try openConnection()
            let deadline = batch.map(\.deadline).max() ?? .now
            let replies = try open.roundTrip(batch.flatMap(\.commands), deadline: deadline)
            var offset = 0
            for request in batch {
                request.continuation.resume(returning: Array(replies[offset..<(offset + request.commands.count)]))
                offset += request.commands.count
            }
        } catch {
            fail(batch, error)
        }
    }

    private func openConnection() throws(RedisError) -> RedisConnection {
        if let connection, connection.isUsable { return connection }
        connection = nil
        // Pipelines queued behind a failed one do not each wait for a connect of their own.
        let refusal: RedisError? = pending.withLock { pending in
            guard let retryAt = pending.retryAt, ContinuousClock.now < retryAt else { return nil }
            return RedisError(.unavailable, pending.lastError?.message ?? "Redis is unavailable.")
        }
        if let refusal { throw refusal }
        let opened = try RedisConnection.open(configuration)
        connection = opened
        pending.withLock { pending in
            pending.retryAt = nil
            pending.backoff = .zero
            pending.lastError = nil
        }
        onConnect(opened.protocolVersion)
        return opened
    }

    private func fail(_ batch: [Request], _ error: RedisError) {
        connection = nil
        pending.withLock { pending in
            pending.backoff = min(Self.maximumBackoff, max(Self.minimumBackoff, pending.backoff * 2))
            pending.retryAt = .now + pending.backoff
            pending.lastError = error
        }
        for request in batch { request.continuation.resume(throwing: error) }
    }
}
