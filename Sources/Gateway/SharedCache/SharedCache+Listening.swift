import RDS
import Redis

extension SharedCache {
    /// Where the reader is in the stream: the last id read and the stream's `entries-added`
    /// count up to and including it.
    struct StreamPosition {
        var id: StreamID
        var added: Int64
    }

    /// Reads the invalidation stream until cancelled: joins at the stream's newest id, then
    /// `XREAD BLOCK`s from the last id read and applies other replicas' messages. Each read is
    /// pipelined behind an `XINFO STREAM`: when fewer entries remain after the last id read than
    /// were added since (`entries-added`), the cap trimmed news this replica never read; when the
    /// stream vanished (Redis restarted without persistence), news was lost too, and so it was
    /// when the connection broke. Either way the local levels of every repository are flushed (log
    /// line `shared_cache_flushed`, metric `rds_gateway_shared_cache_events_total{event="flush"}`)
    /// before reading on, so no replica keeps serving an entry another replica changed.
    func listen() async {
        var position: StreamPosition?
        var hasJoinedBefore = false
        var backoff = Duration.milliseconds(50)
        while !Task.isCancelled {
            do throws(RedisError) {
                guard var current = position else {
                    let joined = try await join()
                    if hasJoinedBefore { await flushAll(reason: "rejoined") }
                    hasJoinedBefore = true
                    position = joined
                    health.setStreamJoined(true)
                    logger.log(.info, "shared_cache_stream_joined", ["id": .string(joined.id.description)])
                    backoff = .milliseconds(50)
                    continue
                }
                let replies = try await streamClient.pipeline(
                    [
                        RedisCommand("XINFO", "STREAM", streamKey),
                        RedisCommand(
                            "XREAD", "COUNT", "512", "BLOCK", String(blockTime.components.seconds * 1_000), "STREAMS",
                            streamKey, current.id.description),
                    ], extraTime: blockTime)
                if let (reason, restart) = gap(info: replies[0], after: current) {
                    await flushAll(reason: reason)
                    current = restart
                }
                if case .error(let text) = replies[1] { throw RedisClient.replyError(text, command: RedisCommand("XREAD")) }
                for entry in try RedisStreamEntry.entries(inReadReply: replies[1]) {
                    if let message = InvalidationMessage(entry) {
                        if message.replica != replicaID { await apply(message) }
                        waiters.fire(repository: message.repository, key: message.key)
                    }
                    if let id = StreamID(entry.id), id > current.id {
                        current = StreamPosition(id: id, added: current.added + 1)
                    }
                }
                position = current
                // Redis answered: a failing spell of the commands is over (their next failure starts another).
                if health.recordSuccess() { logger.log(.info, "shared_cache_recovered", [:]) }
            } catch {
                if position != nil {
                    logger.log(.warning, "shared_cache_stream_lost", ["error": .string(error.code)])
                }
                position = nil
                health.setStreamJoined(false, error: error)
                try? await Task.sleep(for: backoff)
                backoff = min(.seconds(1), backoff * 2)
            }
        }
    }

    /// Where to read from when joining: after the stream's last generated id, or from the start
    /// when the stream does not exist yet.
    private func join() async throws(RedisError) -> StreamPosition {
        let reply = try await streamClient.pipeline([RedisCommand("XINFO", "STREAM", streamKey)])[0]
        guard case .error = reply else {
            let id = Self.field("last-generated-id", in: reply)?.string.flatMap(StreamID.init) ?? StreamID.zero
            return StreamPosition(id: id, added: Self.field("entries-added", in: reply)?.integer ?? 0)
        }
        return StreamPosition(id: .zero, added: 0)
    }

    /// Why news after `position` may have been lost, and where to read on from, or `nil` when none was.
    private func gap(info: RESPValue, after position: StreamPosition) -> (String, StreamPosition)? {
        if case .error = info {
            return position.id.isZero ? nil : ("stream_missing", StreamPosition(id: .zero, added: 0))
        }
        let length = Self.field("length", in: info)?.integer ?? 0
        let firstID = Self.field("first-entry", in: info)?.array?.first?.string.flatMap(StreamID.init)
        // Trimming removes the oldest entries: nothing after the position was lost while the first
        // entry left is at or before it.
        if let firstID, firstID <= position.id { return nil }
        guard let added = Self.field("entries-added", in: info)?.integer else {
            // Redis before 7 counts no entries-added: a first entry past the next id may mean a gap.
            guard let firstID, !position.id.isZero, firstID > position.id.next else { return nil }
            return ("stream_trimmed", StreamPosition(id: position.id, added: position.added))
        }
        guard length < added - position.added else { return nil }
        return ("stream_trimmed", StreamPosition(id: position.id, added: added - length))
    }

    private static func field(_ name: String, in reply: RESPValue) -> RESPValue? {
        guard let flat = reply.array else { return nil }
        return stride(from: 0, to: flat.count - 1, by: 2).first { flat[$0].string == name }.map { flat[$0 + 1] }
    }

    private func apply(_ message: InvalidationMessage) async {
        guard let target = targets.withLock({ $0[message.repository] }) else { return }
        await target.apply(message)
        health.count(\.applied)
    }

    /// Empties the local levels of every repository, with a log line and a metric.
    func flushAll(reason: String) async {
        let all = targets.withLock { Array($0.values) }
        for target in all { await target.flush() }
        waiters.fire(repository: nil, key: [])
        health.count(\.flushes)
        logger.log(.warning, "shared_cache_flushed", ["reason": .string(reason), "repositories": .int(all.count)])
    }
}
