import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The second last written by ``JSONLinesLogger/appendTimestamp(_:to:)`` and its text up to the
/// seconds (`YYYY-MM-DDTHH:MM:SS`): the calendar is worked out once per second, not per line.
private let lastSecond = Mutex<(second: Double, text: [UInt8])>((.nan, []))

/// A ``Logger`` that writes each event as one JSON object on one line (JSON Lines), by default to
/// standard error through ``BufferedLineWriter/standardError`` (call ``flush()`` before exiting).
///
/// ```json
/// {"time":"2026-01-01T00:00:00.123Z","level":"warning","event":"fetch_failed","key":"london","status":503}
/// ```
/// `time` is ISO 8601 in UTC with milliseconds, then `level` and `event`, then the fields sorted
/// by name. A field named `time`, `level` or `event` is written as `field.time` (and so on), so
/// the envelope is never overwritten. Non-finite numbers, which JSON cannot hold, are written as
/// the strings `"NaN"`, `"Infinity"` and `"-Infinity"`.
public struct JSONLinesLogger: Logger {
    /// Events below this level are dropped before any formatting.
    public let minimumLevel: LogLevel

    private let clock: any ClockProvider
    private let output: Output

    /// Where the lines go.
    private enum Output: Sendable {
        case buffered(BufferedLineWriter)
        case lines(@Sendable (String) -> Void)
    }

    /// Creates a logger writing through `writer`.
    /// - Parameters:
    ///   - minimumLevel: The least important level that is written.
    ///   - clock: The source of each event's `time`.
    ///   - writer: Receives each line's bytes; by default ``BufferedLineWriter/standardError``.
    public init(
        minimumLevel: LogLevel, clock: any ClockProvider = SystemClock(),
        writer: BufferedLineWriter = .standardError
    ) {
        self.minimumLevel = minimumLevel
        self.clock = clock
        self.output = .buffered(writer)
    }

    /// Creates a logger handing each line, without its line break, to `write`.
    public init(minimumLevel: LogLevel, clock: any ClockProvider = SystemClock(), write: @escaping @Sendable (String) -> Void) {
        self.minimumLevel = minimumLevel
        self.clock = clock
        self.output = .lines(write)
    }

    /// Writes the lines still buffered and returns once they are written.
    public func flush() {
        if case .buffered(let writer) = output { writer.flush() }
    }

    /// Formats the event as one JSON line and hands it to the writer, when `level` is at least
    /// ``minimumLevel``.
    public func log(_ level: LogLevel, _ event: String, _ fields: [String: LogValue]) {
        guard level >= minimumLevel else { return }
        format(level, event, fields.sorted(by: { $0.key < $1.key }).map { (name: $0.key, value: $0.value) })
    }

    /// Like ``log(_:_:_:)`` for fields already sorted by name: writes them in the given order,
    /// without building or sorting a dictionary.
    public func log(_ level: LogLevel, _ event: String, orderedFields: [(name: String, value: LogValue)]) {
        guard level >= minimumLevel else { return }
        format(level, event, orderedFields)
    }

    private func format(_ level: LogLevel, _ event: String, _ fields: [(name: String, value: LogValue)]) {
        // Sized once for the longest the line can be, then written without growing.
        var bound = 64 + level.name.utf8.count + JSONLineBuffer.stringBound(event)
        for (name, value) in fields {
            bound += 8 + JSONLineBuffer.stringBound(name) + JSONLineBuffer.valueBound(value)
        }
        let now = clock.now
        let line = [UInt8](unsafeUninitializedCapacity: bound) { memory, initialized in
            var buffer = JSONLineBuffer(writingAt: memory.baseAddress!)
            buffer.write("{\"time\":\"")
            Self.writeTimestamp(now, to: &buffer)
            buffer.write("\",\"level\":\"")
            buffer.writeVerbatim(level.name)
            buffer.write("\",\"event\":")
            buffer.writeString(event)
            fields.withUnsafeBufferPointer { fields in
                for index in fields.indices {
                    buffer.write(UInt8(ascii: ","))
                    let name = fields[index].name
                    let isEnvelope = Self.isEnvelopeName(name)
                    buffer.writeString(isEnvelope ? "field." + name : name)
                    buffer.write(UInt8(ascii: ":"))
                    buffer.writeValue(fields[index].value)
                }
            }
            buffer.write(UInt8(ascii: "}"))
            initialized = buffer.count
        }
        switch output {
        case .buffered(let writer): writer.append(line: line)
        case .lines(let write): write(String(decoding: line, as: UTF8.self))
        }
    }

    /// `true` for `time`, `level` and `event`, the envelope's names (told apart by length and first
    /// byte before any comparison: most field names are neither).
    private static func isEnvelopeName(_ name: String) -> Bool {
        let count = name.utf8.count
        guard count == 4 || count == 5, let first = name.utf8.first,
            first == UInt8(ascii: "t") || first == UInt8(ascii: "l") || first == UInt8(ascii: "e")
        else { return false }
        return name == "time" || name == "level" || name == "event"
    }

    /// Lines ``BufferedLineWriter/standardError`` dropped because standard error refused them
    /// (e.g. its reader went away: `EPIPE`, with `SIGPIPE` ignored), since the process started.
    public static var failedWrites: Int { BufferedLineWriter.standardError.failedLines }

    /// Writes `date` as `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC, milliseconds truncated; clamped to years 1 to 9999).
    static func writeTimestamp(_ date: Date, to line: inout JSONLineBuffer) {
        let yearOneToYear9999 = -62_135_596_800.0...253_402_300_799.999
        let raw = date.timeIntervalSince1970
        let interval = raw.isFinite ? min(max(raw, yearOneToYear9999.lowerBound), yearOneToYear9999.upperBound) : 0
        let seconds = interval.rounded(.down)
        let milliseconds = min(999, max(0, Int(((interval - seconds) * 1_000).rounded(.down))))
        let text =
            lastSecond.withLock { $0.second == seconds ? $0.text : nil } ?? {
                let text = secondText(seconds)
                lastSecond.withLock { $0 = (seconds, text) }
                return text
            }()
        text.withUnsafeBufferPointer { line.write($0) }
        line.write(UInt8(ascii: "."))
        line.writeDigits(UInt(milliseconds), width: 3)
        line.write(UInt8(ascii: "Z"))
    }

    /// `YYYY-MM-DDTHH:MM:SS` of a whole second since 1970, in UTC.
    private static func secondText(_ seconds: Double) -> [UInt8] {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return [UInt8](unsafeUninitializedCapacity: 19) { memory, initialized in
            var text = JSONLineBuffer(writingAt: memory.baseAddress!)
            text.writeDigits(UInt(Int(parts.tm_year) + 1900), width: 4)
            text.write(UInt8(ascii: "-"))
            text.writeDigits(UInt(Int(parts.tm_mon) + 1), width: 2)
            text.write(UInt8(ascii: "-"))
            text.writeDigits(UInt(Int(parts.tm_mday)), width: 2)
            text.write(UInt8(ascii: "T"))
            text.writeDigits(UInt(Int(parts.tm_hour)), width: 2)
            text.write(UInt8(ascii: ":"))
            text.writeDigits(UInt(Int(parts.tm_min)), width: 2)
            text.write(UInt8(ascii: ":"))
            text.writeDigits(UInt(Int(parts.tm_sec)), width: 2)
            initialized = text.count
        }
    }
}
