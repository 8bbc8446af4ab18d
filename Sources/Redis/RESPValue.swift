/// One reply (or part of one) in the Redis serialization protocol, RESP2 or RESP3.
///
/// RESP3-only types (maps, sets, doubles, booleans, big numbers, verbatim strings) are kept
/// apart so a caller can tell them, but the accessors below read both protocol versions alike:
/// a RESP2 `*-1` and a RESP3 `_` are both ``null``, a map reads as a flat array of pairs.
public enum RESPValue: Sendable, Equatable {
    /// `+OK`
    case simpleString(String)
    /// `-ERR …` (an error reply; ``RedisClient`` turns it into a ``RedisError``).
    case error(String)
    /// `:42`
    case integer(Int64)
    /// `$5\r\nhello` (binary-safe).
    case bulkString([UInt8])
    /// `*N` followed by N values.
    case array([RESPValue])
    /// A RESP2 null bulk string or array, or the RESP3 `_`.
    case null
    /// RESP3 `%N` (N key/value pairs).
    case map([(key: RESPValue, value: RESPValue)])
    /// RESP3 `~N`.
    case set([RESPValue])
    /// RESP3 `,1.5`.
    case double(Double)
    /// RESP3 `#t` / `#f`.
    case boolean(Bool)
    /// RESP3 `(` big number, kept as its decimal text.
    case bigNumber(String)
    /// RESP3 `>N`: an out-of-band message (client tracking, pub/sub), never a command's reply.
    case push([RESPValue])

    /// The text of a simple, bulk or verbatim string, or of a number.
    public var string: String? {
        switch self {
        case .simpleString(let text), .bigNumber(let text): text
        case .bulkString(let bytes): String(decoding: bytes, as: UTF8.self)
        case .integer(let value): String(value)
        default: nil
        }
    }

    /// The bytes of a bulk string (or of a simple string's text).
    public var bytes: [UInt8]? {
        switch self {
        case .bulkString(let bytes): bytes
        case .simpleString(let text): Array(text.utf8)
        default: nil
        }
    }

    /// An integer reply, or a string holding one.
    public var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .simpleString(let text): Int64(text)
        case .bulkString(let bytes): Int64(String(decoding: bytes, as: UTF8.self))
        default: nil
        }
    }

    /// The elements of an array, set or push; a map as alternating keys and values.
    public var array: [RESPValue]? {
        switch self {
        case .array(let values), .set(let values), .push(let values): values
        case .map(let pairs): pairs.flatMap { [$0.key, $0.value] }
        default: nil
        }
    }

    /// `true` for ``null``.
    public var isNull: Bool { self == .null }

    /// Compares values; maps compare pair by pair in order.
    public static func == (lhs: RESPValue, rhs: RESPValue) -> Bool {
        switch (lhs, rhs) {
        case (.simpleString(let a), .simpleString(let b)), (.error(let a), .error(let b)),
            (.bigNumber(let a), .bigNumber(let b)):
            a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.bulkString(let a), .bulkString(let b)): a == b
        case (.array(let a), .array(let b)), (.set(let a), .set(let b)), (.push(let a), .push(let b)): a == b
        case (.null, .null): true
        case (.map(let a), .map(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.double(let a), .double(let b)): a == b || (a.isNaN && b.isNaN)
        case (.boolean(let a), .boolean(let b)): a == b
        default: false
        }
    }
}
