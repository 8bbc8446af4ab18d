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
        var line: [UInt8] = []
        line.reserveCapacity(96 + event.utf8.count + fields.count * 32)
        line.append(contentsOf: "{\"time\":\"".utf8)
        Self.appendTimestamp(clock.now, to: &line)
        line.append(contentsOf: "\",\"level\":\"".utf8)
        line.append(contentsOf: level.name.utf8)
        line.append(contentsOf: "\",\"event\":".utf8)
        Self.appendString(event, to: &line)
        for (name, value) in fields {
            line.append(UInt8(ascii: ","))
            let isEnvelope = name.utf8.count <= 5 && (name == "time" || name == "level" || name == "event")
            Self.appendString(isEnvelope ? "field." + name : name, to: &line)
            line.append(UInt8(ascii: ":"))
            Self.appendValue(value, to: &line)
        }
        line.append(UInt8(ascii: "}"))
        switch output {
        case .buffered(let writer): writer.append(line: line)
        case .lines(let write): write(String(decoding: line, as: UTF8.self))
        }
    }

    /// Lines ``BufferedLineWriter/standardError`` dropped because standard error refused them
    /// (e.g. its reader went away: `EPIPE`, with `SIGPIPE` ignored), since the process started.
    public static var failedWrites: Int { BufferedLineWriter.standardError.failedLines }

    private static func appendValue(_ value: LogValue, to line: inout [UInt8]) {
        switch value {
        case .string(let text):
            appendString(text, to: &line)
        case .int(let number):
            line.append(contentsOf: String(number).utf8)
        case .double(let number) where number.isNaN:
            appendString("NaN", to: &line)
        case .double(let number) where number.isInfinite:
            appendString(number < 0 ? "-Infinity" : "Infinity", to: &line)
        case .double(let number):
            line.append(contentsOf: String(number).utf8)
        case .bool(let flag):
            line.append(contentsOf: (flag ? "true" : "false").utf8)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `text` as a JSON string (RFC 8259 §7): quotes, backslashes and control characters
    /// escaped. Runs between escapes are copied whole (most values need no escape at all).
    static func appendString(_ text: String, to line: inout [UInt8]) {
        line.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                appendEscape(byte, to: &line)
                runStart = index + 1
            }
            line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        line.append(UInt8(ascii: "\""))
    }

    /// Appends the JSON escape of a quote, a backslash or a control character.
    private static func appendEscape(_ byte: UInt8, to line: inout [UInt8]) {
        line.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x0A: line.append(UInt8(ascii: "n"))
        case 0x0D: line.append(UInt8(ascii: "r"))
        case 0x09: line.append(UInt8(ascii: "t"))
        case 0x08: line.append(UInt8(ascii: "b"))
        case 0x0C: line.append(UInt8(ascii: "f"))
        case 0x00..<0x20:
            line += [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
            line += [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
        default: line.append(byte)
        }
    }

    /// Appends `date` as `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC, milliseconds truncated; clamped to years 1 to 9999).
    static func appendTimestamp(_ date: Date, to line: inout [UInt8]) {
        let yearOneToYear9999 = -62_135_596_800.0...253_402_300_799.999
        let raw = date.timeIntervalSince1970
        let interval = raw.isFinite ? min(max(raw, yearOneToYear9999.lowerBound), yearOneToYear9999.upperBound) : 0
        let seconds = interval.rounded(.down)
        let milliseconds = min(999, max(0, Int(((interval - seconds) * 1_000).rounded(.down))))
        if let text = lastSecond.withLock({ $0.second == seconds ? $0.text : nil }) {
            line.append(contentsOf: text)
        } else {
            var text: [UInt8] = []
            var time = time_t(seconds)
            var parts = tm()
            gmtime_r(&time, &parts)
            appendDigits(Int(parts.tm_year) + 1900, width: 4, to: &text)
            text.append(UInt8(ascii: "-"))
            appendDigits(Int(parts.tm_mon) + 1, width: 2, to: &text)
            text.append(UInt8(ascii: "-"))
            appendDigits(Int(parts.tm_mday), width: 2, to: &text)
            text.append(UInt8(ascii: "T"))
            appendDigits(Int(parts.tm_hour), width: 2, to: &text)
            text.append(UInt8(ascii: ":"))
            appendDigits(Int(parts.tm_min), width: 2, to: &text)
            text.append(UInt8(ascii: ":"))
            appendDigits(Int(parts.tm_sec), width: 2, to: &text)
            lastSecond.withLock { $0 = (seconds, text) }
            line.append(contentsOf: text)
        }
        line.append(UInt8(ascii: "."))
        appendDigits(milliseconds, width: 3, to: &line)
        line.append(UInt8(ascii: "Z"))
    }

    /// Appends the decimal digits of `value` (0 or more), left-padded with zeros to `width`.
    private static func appendDigits(_ value: Int, width: Int, to line: inout [UInt8]) {
        var divisor = 1
        var digits = 1
        while divisor <= value / 10 {
            divisor *= 10
            digits += 1
        }
        for _ in digits..<max(digits, width) { line.append(UInt8(ascii: "0")) }
        var rest = value
        while divisor > 0 {
            line.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
