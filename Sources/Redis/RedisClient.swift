import Synchronization

/// A small pool of Redis connections on our own sockets.
///
/// Commands go to the connections round robin; commands waiting for the same connection are
/// pipelined. Error replies become ``RedisError`` (`server`, or `authentication` for `NOAUTH`)
/// in ``send(_:)``; ``pipeline(_:)`` returns them in place so a caller can tell which failed.
/// Each connection reconnects on its own with backoff (see ``RedisConnectionSlot``).
public final class RedisClient: Sendable {
    /// The settings this client was made with.
    public let configuration: RedisConfiguration
    private let slots: [RedisConnectionSlot]
    private let next = Atomic<Int>(0)
    private let counters = RedisConnectionCounters()

    /// A client; nothing connects until the first command.
    /// - Parameter name: Names the connections' queues (e.g. `redis.shared`).
    public init(configuration: RedisConfiguration, name: String = "redis") {
        self.configuration = configuration
        let counters = counters
        slots = (0..<configuration.poolSize).map { index in
            RedisConnectionSlot(configuration: configuration, label: "\(name).\(index)") { version in
                counters.connects.add(1, ordering: .relaxed)
                counters.protocolVersion.store(version, ordering: .relaxed)
            }
        }
    }

    /// Successful connects so far (the first and every reconnect), for metrics and tests.
    public var connectCount: Int { counters.connects.load(ordering: .relaxed) }

    /// The protocol the last connection negotiated: 3 (`HELLO 3`), 2 (fallback), 0 before any.
    public var protocolVersion: Int { counters.protocolVersion.load(ordering: .relaxed) }

    /// Sends one command and returns its reply.
    /// - Parameter extraTime: Added to the command timeout (a blocking read's own wait).
    /// - Throws: ``RedisError``; an error reply is `server`.
    @discardableResult
    public func send(_ command: RedisCommand, extraTime: Duration = .zero) async throws(RedisError) -> RESPValue {
        let reply = try await pipeline([command], extraTime: extraTime)[0]
        if case .error(let text) = reply { throw Self.replyError(text, command: command) }
        return reply
    }

    /// Sends `commands` in one round trip on one connection and returns one reply per command;
    /// error replies stay in place as ``RESPValue/error(_:)``.
    /// - Throws: ``RedisError`` when the round trip itself fails.
    public func pipeline(_ commands: [RedisCommand], extraTime: Duration = .zero) async throws(RedisError) -> [RESPValue] {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        let slot = slots[index % slots.count]
        do {
            return try await slot.send(commands, extraTime: extraTime)
        } catch let error as RedisError {
            throw error
        } catch {
            throw RedisError(.protocolError, "\(error)")
        }
    }

    /// The error for an error reply to `command`.
    public static func replyError(_ text: String, command: RedisCommand) -> RedisError {
        if text.hasPrefix("NOAUTH") || text.hasPrefix("WRONGPASS") || text.hasPrefix("NOPERM") {
            return RedisError(.authentication, "Redis refused \(command.name): \(text.prefix(160))")
        }
        return RedisError(.server, "Redis answered \(command.name) with an error: \(text.prefix(160))")
    }
}
