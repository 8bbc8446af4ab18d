/// One entry read from a Redis stream: its id (`<ms>-<seq>`) and its field/value pairs.
public struct RedisStreamEntry: Sendable, Equatable {
    /// The entry id, e.g. `1700000000000-0`.
    public var id: String
    /// The fields in the order they were added.
    public var fields: [(name: String, value: [UInt8])]

    /// Creates an entry.
    public init(id: String, fields: [(name: String, value: [UInt8])]) {
        self.id = id
        self.fields = fields
    }

    /// The first value of `name` as text.
    public subscript(_ name: String) -> String? {
        fields.first { $0.name == name }.map { String(decoding: $0.value, as: UTF8.self) }
    }

    /// Compares ids and fields.
    public static func == (lhs: RedisStreamEntry, rhs: RedisStreamEntry) -> Bool {
        lhs.id == rhs.id && lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// The entries of one stream in an `XREAD` or `XRANGE` reply, RESP2 (arrays) or RESP3 (a map
    /// of stream name to entries); `[]` for a null reply (the block timed out).
    /// - Throws: ``RedisError`` (`protocolError`) for a reply of another shape.
    public static func entries(inReadReply reply: RESPValue) throws(RedisError) -> [RedisStreamEntry] {
        if reply.isNull { return [] }
        guard let streams = reply.array else { throw malformed }
        // RESP2: [[name, entries], …]; RESP3: map → flattened [name, entries, …].
        var lists: [RESPValue] = []
        if case .map = reply {
            lists = stride(from: 1, to: streams.count, by: 2).map { streams[$0] }
        } else {
            for stream in streams {
                guard let pair = stream.array, pair.count == 2 else { throw malformed }
                lists.append(pair[1])
            }
        }
        var result: [RedisStreamEntry] = []
        for list in lists { result += try entries(inRangeReply: list) }
        return result
    }

    /// The entries of an `XRANGE` reply (or of one stream in `XREAD`).
    /// - Throws: ``RedisError`` (`protocolError`) for a reply of another shape.
    public static func entries(inRangeReply reply: RESPValue) throws(RedisError) -> [RedisStreamEntry] {
        guard let items = reply.array else { throw malformed }
        return try items.map { item throws(RedisError) in
            guard let parts = item.array, parts.count == 2, let id = parts[0].string, let flat = parts[1].array,
                flat.count % 2 == 0
            else { throw malformed }
            var fields: [(name: String, value: [UInt8])] = []
            for index in stride(from: 0, to: flat.count, by: 2) {
                guard let name = flat[index].string, let value = flat[index + 1].bytes else { throw malformed }
                fields.append((name, value))
            }
            return RedisStreamEntry(id: id, fields: fields)
        }
    }

    private static var malformed: RedisError { RedisError(.protocolError, "Redis sent a stream reply of an unexpected shape.") }
}
