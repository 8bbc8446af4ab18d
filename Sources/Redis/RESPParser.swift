/// An incremental RESP2/RESP3 reply parser with bounds.
///
/// Feed it bytes as they arrive with ``append(_:)``; ``next()`` returns one whole reply once all
/// of it is buffered, `nil` while it is incomplete. Attributes (`|`) are read and dropped. A bulk
/// string longer than `maxBulkBytes`, an aggregate of more than `maxElements` or nesting deeper
/// than `maxDepth` is a ``RedisError`` (`protocolError`): a broken or hostile server cannot grow
/// the process without bound.
public struct RESPParser: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    private let maxBulkBytes: Int
    private let maxElements: Int
    private let maxDepth: Int

    /// A parser with the given bounds.
    public init(maxBulkBytes: Int = 512 << 20, maxElements: Int = 1 << 20, maxDepth: Int = 32) {
        self.maxBulkBytes = maxBulkBytes
        self.maxElements = maxElements
        self.maxDepth = maxDepth
    }

    /// Bytes buffered but not yet returned as a reply.
    public var bufferedCount: Int { buffer.count - start }

    /// Buffers received bytes.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole reply, or `nil` when more bytes are needed.
    /// - Throws: ``RedisError`` (`protocolError`) for bytes that are not RESP or break a bound.
    public mutating func next() throws(RedisError) -> RESPValue? {
        var index = start
        guard let value = try parse(at: &index, depth: 0) else { return nil }
        start = index
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 << 10)
            start = 0
        }
        return value
    }

    private func parse(at index: inout Int, depth: Int) throws(RedisError) -> RESPValue? {
        guard depth <= maxDepth else { throw Self.failure("replies nest deeper than \(maxDepth)") }
        guard index < buffer.count else { return nil }
        let type = buffer[index]
        var cursor = index + 1
        guard let line = lineEnd(from: cursor) else {
            guard buffer.count - cursor <= 64 << 10 else { throw Self.failure("a reply line exceeds 64 KiB") }
            return nil
        }
        let text = String(decoding: buffer[cursor..<line], as: UTF8.self)
        cursor = line + 2
        let value: RESPValue
        switch type {
        case UInt8(ascii: "+"): value = .simpleString(text)
        case UInt8(ascii: "-"): value = .error(text)
        case UInt8(ascii: ":"):
            guard let number = Int64(text) else { throw Self.failure("bad integer \(text.prefix(32))") }
            value = .integer(number)
        case UInt8(ascii: "_"): value = .null
        case UInt8(ascii: ","):
            guard let number = Double(text) else { throw Self.failure("bad double") }
            value = .double(number)
        case UInt8(ascii: "#"):
            guard text == "t" || text == "f" else { throw Self.failure("bad boolean") }
            value = .boolean(text == "t")
        case UInt8(ascii: "("): value = .bigNumber(text)
        case UInt8(ascii: "$"), UInt8(ascii: "="), UInt8(ascii: "!"):
            guard let length = Int(text), length >= -1 else { throw Self.failure("bad bulk length") }
            if length == -1 {
                value = .null
                break
            }
            guard length <= maxBulkBytes else { throw Self.failure("a bulk string of \(length) bytes exceeds the limit") }
            guard buffer.count - cursor >= length + 2 else { return nil }
            var bytes = Array(buffer[cursor..<(cursor + length)])
            cursor += length + 2
            if type == UInt8(ascii: "=") { bytes = Array(bytes.dropFirst(min(4, bytes.count))) }
            value = type == UInt8(ascii: "!") ? .error(String(decoding: bytes, as: UTF8.self)) : .bulkString(bytes)
        case UInt8(ascii: "*"), UInt8(ascii: "~"), UInt8(ascii: ">"), UInt8(ascii: "%"), UInt8(ascii: "|"):
            guard let count = Int(text), count >= -1 else { throw Self.failure("bad aggregate length") }
            if count == -1 {
                value = .null
                break
            }
            let isPaired = type == UInt8(ascii: "%") || type == UInt8(ascii: "|")
            let elements = isPaired ? count * 2 : count
            guard elements <= maxElements else { throw Self.failure("an aggregate of \(count) exceeds the limit") }
            var items: [RESPValue] = []
            items.reserveCapacity(min(elements, 1_024))
            for _ in 0..<elements {
                guard let item = try parse(at: &cursor, depth: depth + 1) else { return nil }
                items.append(item)
            }
            switch type {
            case UInt8(ascii: "~"): value = .set(items)
            case UInt8(ascii: ">"): value = .push(items)
            case UInt8(ascii: "%"):
                value = .map(stride(from: 0, to: items.count, by: 2).map { (items[$0], items[$0 + 1]) })
            case UInt8(ascii: "|"):
                // An attribute describes the reply after it: read it and return that reply.
                index = cursor
                return try parse(at: &index, depth: depth)
            default: value = .array(items)
            }
        default:
            throw Self.failure("unknown reply type byte \(type)")
        }
        index = cursor
        return value
    }

    private func lineEnd(from position: Int) -> Int? {
        var index = position
        while index + 1 < buffer.count {
            if buffer[index] == 13 && buffer[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }

    private static func failure(_ message: String) -> RedisError {
        RedisError(.protocolError, "Redis sent a malformed reply: \(message).")
    }
}
