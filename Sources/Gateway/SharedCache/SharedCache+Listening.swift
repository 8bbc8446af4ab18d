import RDS
import Redis

extension SharedCache {
    /// Reads the invalidation stream until cancelled: joins at the stream's newest id, then
    /// `XREAD BLOCK`s from the last id read and applies other replicas' messages. Each read is
    /// pipelined behind an `XINFO STREAM`: when entries after the last id read were trimmed (the
    /// stream's `max-deleted-entry-id` passed it) or the stream vanished (Redis restarted
    /// without persistence), news was lost. Losing the connection loses news too. Either way the
    /// local levels of every repository are flushed (log line `shared_cache_flushed`, metric
    /// `rds_gateway_shared_cache_flushes_total`) before reading on, so no replica keeps serving
    /// an entry another replica changed.
    func listen() async {
        var lastID: StreamID?
        var hasJoinedBefore = false
        var backoff = Duration.milliseconds(50)
        while !Task.isCancelled {
            do throws(RedisError) {
                guard let current = lastID else {
                    let joined = try await joinID()
                    if hasJoinedBefore { await flushAll(reason: "rejoined") }
                    hasJoinedBefore = true
                    lastID = joined
                    health.setStreamJoined(true)
                    logger.log(.info, "shared_cache_stream_joined", ["id": .string(joined.description)])
                    backoff = .milliseconds(50)
                    continue
                }
                let replies = try await streamClient.pipeline(
                    [
                        RedisCommand("XINFO", "STREAM", streamKey),
                        RedisCommand(
                            "XREAD", "COUNT", "512", "BLOCK", String(blockTime.components.seconds * 1_000), "STREAMS",
                            streamKey, current.description),
                    ], extraTime: blockTime)
                if let gap = gapReason(info: replies[0], after: current) {
                    await flushAll(reason: gap)
                    // A vanished stream starts again from nothing: read everything it gets.
                    if case .error = replies[0] { lastID = StreamID(milliseconds: 0, sequence: 0) }
                }
                if case .error(let text) = replies[1] { throw RedisClient.replyError(text, command: RedisCommand("XREAD")) }
                let entries = try RedisStreamEntry.entries(inReadReply: replies[1])
                for entry in entries {
                    if let message = InvalidationMessage(entry), message.replica != replicaID {
                        await apply(message)
                    }
                    if let id = StreamID(entry.id) { lastID = id }
                }
            } catch {
                if lastID != nil {
                    logger.log(.warning, "shared_cache_stream_lost", ["error": .string(error.code)])
                }
                lastID = nil
                health.setStreamJoined(false, error: error)
                try? await Task.sleep(for: backoff)
                backoff = min(.seconds(1), backoff * 2)
            }
        }
    }

    /// The id to read after when joining: the stream's last generated id, or `0-0` when the
    /// stream does not exist yet.
    private func joinID() async throws(RedisError) -> StreamID {
        let reply = try await streamClient.pipeline([RedisCommand("XINFO", "STREAM", streamKey)])[0]
        if case .error = reply { return StreamID(milliseconds: 0, sequence: 0) }
        return Self.field("last-generated-id", in: reply).flatMap { $0.string.flatMap(StreamID.init) }
            ?? StreamID(milliseconds: 0, sequence: 0)
    }

    /// Why news after `lastID` may have been lost, or `nil` when none was.
    private func gapReason(info: RESPValue, after lastID: StreamID) -> String? {
        if case .error = info {
            return lastID.isZero ? nil : "stream_missing"
        }
        if let deleted = Self.field("max-deleted-entry-id", in: info)?.string.flatMap(StreamID.init) {
            return deleted > lastID ? "stream_trimmed" : nil
        }
        // Redis before 7 has no max-deleted-entry-id: a first entry past the next id may mean a gap.
        if let first = Self.field("first-entry", in: info)?.array?.first?.string.flatMap(StreamID.init),
            !lastID.isZero, first > lastID.next
        {
            return "stream_trimmed"
        }
        return nil
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
        health.count(\.flushes)
        logger.log(.warning, "shared_cache_flushed", ["reason": .string(reason), "repositories": .int(all.count)])
    }
}
