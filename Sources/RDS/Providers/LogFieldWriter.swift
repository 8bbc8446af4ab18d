/// Writes the fields of one log event, in ascending name order and each name once (see
/// ``Logger/log(_:_:writingFields:)``): straight into the line of a ``JSONLinesLogger``, or
/// collected as name and value for other loggers. What a hot path writes on every event is
/// prepared once (``PreparedLogName``, ``PreparedLogField``), so that writing it copies bytes.
public struct LogFieldWriter {
    /// The line the fields are written into; `nil` when they are collected.
    private var line: JSONLineBuffer?
    /// The bytes the line's memory has left for the fields.
    private let room: Int
    /// The most bytes the fields written so far take. Beyond ``room`` nothing more is written:
    /// the logger writes the line again into memory of this size.
    private(set) var needed = 0
    /// The fields, when they are collected.
    private(set) var collected: [(name: String, value: LogValue)] = []

    /// A writer continuing `line`, which has `room` bytes left for the fields.
    init(continuing line: JSONLineBuffer, room: Int) {
        self.line = line
        self.room = room
    }

    /// A writer collecting the fields as names and values.
    init() {
        line = nil
        room = 0
    }

    /// The line with every field written; `nil` when they did not fit (or were collected).
    var writtenLine: JSONLineBuffer? { needed <= room ? line : nil }

    /// Writes a prepared field.
    public mutating func write(_ field: PreparedLogField) {
        guard fits(field.json.count) else { return collect(field.name, field.value) }
        field.json.withUnsafeBufferPointer { line!.write($0) }
    }

    /// Writes the field `name` with a string value.
    public mutating func write(_ name: PreparedLogName, string value: some StringProtocol) {
        guard fits(name.json.count + JSONLineBuffer.stringBound(value)) else {
            return collect(name.name, .string(String(value)))
        }
        name.json.withUnsafeBufferPointer { line!.write($0) }
        line!.writeString(value)
    }

    /// Writes the field `name` with a string value known to need no escape (ASCII letters, digits
    /// and punctuation but `"` and `\`, as a validated request id): copied as it is, unchecked.
    public mutating func write(_ name: PreparedLogName, verbatim value: String) {
        assert(JSONLineBuffer.needsNoEscape(value), "a verbatim log value needs escaping")
        guard fits(name.json.count + 2 + value.utf8.count) else { return collect(name.name, .string(value)) }
        name.json.withUnsafeBufferPointer { line!.write($0) }
        line!.write(UInt8(ascii: "\""))
        line!.writeVerbatim(value)
        line!.write(UInt8(ascii: "\""))
    }

    /// Writes the field `name` with an integer value.
    public mutating func write(_ name: PreparedLogName, int value: Int) {
        guard fits(name.json.count + JSONLineBuffer.valueBound(.int(value))) else { return collect(name.name, .int(value)) }
        name.json.withUnsafeBufferPointer { line!.write($0) }
        line!.writeValue(.int(value))
    }

    /// Writes the field `name` with a duration of `nanoseconds`, in milliseconds: its decimal
    /// digits (no floating-point formatting, no `Duration` arithmetic); collected as a `double`.
    public mutating func write(_ name: PreparedLogName, durationNanoseconds nanoseconds: Int64) {
        guard fits(name.json.count + JSONLineBuffer.millisecondsBound) else {
            return collect(name.name, .double(Double(nanoseconds) / 1e6))
        }
        name.json.withUnsafeBufferPointer { line!.write($0) }
        line!.writeMilliseconds(nanoseconds: nanoseconds)
    }

    /// Writes the field `name` with `value` (nothing prepared: the name is escaped on each call).
    public mutating func write(_ name: String, _ value: LogValue) {
        guard fits(Self.bound(name: name, value: value)) else { return collect(name, value) }
        line!.write(name: name, value: value)
    }

    /// `true` when the line has room for `bound` more bytes; counts them either way (a collecting writer has none).
    private mutating func fits(_ bound: Int) -> Bool {
        guard line != nil else { return false }
        needed += bound
        return needed <= room
    }

    /// Keeps a field when collecting; a line out of room drops it (it is written again, whole).
    private mutating func collect(_ name: String, _ value: LogValue) {
        if line == nil { collected.append((name, value)) }
    }

    /// The most bytes `,"name":value` takes (an envelope name renamed included).
    private static func bound(name: String, value: LogValue?) -> Int {
        4 + 6 + JSONLineBuffer.stringBound(name) + (value.map(JSONLineBuffer.valueBound) ?? 0)
    }

    /// `,"name":` and, when given, the value, as a JSON line holds them.
    static func encoded(name: String, value: LogValue?) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bound(name: name, value: value)) { memory, initialized in
            var buffer = JSONLineBuffer(writingAt: memory.baseAddress!)
            if let value { buffer.write(name: name, value: value) } else { buffer.write(name: name) }
            initialized = buffer.count
        }
    }
}
