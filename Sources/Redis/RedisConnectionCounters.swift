import Synchronization

/// What a client's connections report when they (re)connect.
final class RedisConnectionCounters: Sendable {
    /// Successful connects.
    let connects = Atomic<Int>(0)
    /// The protocol version of the last connect.
    let protocolVersion = Atomic<Int>(0)
}
