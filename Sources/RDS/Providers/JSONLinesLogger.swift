import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``Logger`` that writes each event as one JSON object on one line (JSON Lines), by default to
/// standard error.
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
    private let writeLine: @Sendable (String) -> Void

    /// Creates a logger.
    /// - Parameters:
    ///   - minimumLevel: The least important level that is written.
    ///   - clock: The source of each event's `time`.
    ///   - write: Receives each line, without its line break; by default
    ///     ``writeToStandardError(_:)``.
    public init(
        minimumLevel: LogLevel, clock: any ClockProvider = SystemClock(),
        write: @escaping @Sendable (String) -> Void = JSONLinesLogger.writeToStandardError
    ) {
        self.minimumLevel = minimumLevel
        self.clock = clock
        self.writeLine = write
    }

    /// Formats the event as one JSON line and hands it to the writer, when `level` is at least
    /// ``minimumLevel``.
    public func log(_ level: LogLevel, _ event: String, _ fields: [String: LogValue]) {
        guard level >= minimumLevel else { return }
        var line: [UInt8] = []
        line.reserveCapacity(96 + event.utf8.count + fields.count * 32)
        line += Array("{\"time\":\"".utf8)
        Self.appendTimestamp(clock.now, to: &line)
        line += Array("\",\"level\":\"".utf8)
        line += Array(level.name.utf8)
        line += Array("\",\"event\":".utf8)
        Self.appendString(event, to: &line)
        for name in fields.keys.sorted() {
            guard let value = fields[name] else { continue }
            line.append(UInt8(ascii: ","))
            Self.appendString(["time", "level", "event"].contains(name) ? "field." + name : name, to: &line)
            line.append(UInt8(ascii: ":"))
            Self.appendValue(value, to: &line)
        }
        line.append(UInt8(ascii: "}"))
        writeLine(String(decoding: line, as: UTF8.self))
    }

    /// Writes `line` and a line break to standard error in a single `write(2)` where possible, so
    /// lines from many threads do not interleave.
    public static func writeToStandardError(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var written = 0
            while written < buffer.count {
                let count = write(STDERR_FILENO, base + written, buffer.count - written)
                if count > 0 {
                    written += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    private static func appendValue(_ value: LogValue, to line: inout [UInt8]) {
        switch value {
        case .string(let text):
            appendString(text, to: &line)
        case .int(let number):
            line += Array(String(number).utf8)
        case .double(let number) where number.isNaN:
            appendString("NaN", to: &line)
        case .double(let number) where number.isInfinite:
            appendString(number < 0 ? "-Infinity" : "Infinity", to: &line)
        case .double(let number):
            line += Array(String(number).utf8)
        case .bool(let flag):
            line += Array((flag ? "true" : "false").utf8)
        }
    }

    /// Appends `text` as a JSON string (RFC 8259 §7): quotes, backslashes and control characters escaped.
    static func appendString(_ text: String, to line: inout [UInt8]) {
        let hexDigits = Array("0123456789abcdef".utf8)
        line.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): line += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): line += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: line += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: line += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: line += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: line += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: line += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x00..<0x20:
                line += Array("\\u00".utf8)
                line += [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            default: line.append(byte)
            }
        }
        line.append(UInt8(ascii: "\""))
    }

    /// Appends `date` as `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC, milliseconds truncated; clamped to years 1 to 9999).
    static func appendTimestamp(_ date: Date, to line: inout [UInt8]) {
        let yearOneToYear9999 = -62_135_596_800.0...253_402_300_799.999
        let raw = date.timeIntervalSince1970
        let interval = raw.isFinite ? min(max(raw, yearOneToYear9999.lowerBound), yearOneToYear9999.upperBound) : 0
        let seconds = interval.rounded(.down)
        let milliseconds = min(999, max(0, Int(((interval - seconds) * 1_000).rounded(.down))))
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let fields: [(value: Int, width: Int, separator: UInt8)] = [
            (Int(parts.tm_year) + 1900, 4, UInt8(ascii: "-")), (Int(parts.tm_mon) + 1, 2, UInt8(ascii: "-")),
            (Int(parts.tm_mday), 2, UInt8(ascii: "T")), (Int(parts.tm_hour), 2, UInt8(ascii: ":")),
            (Int(parts.tm_min), 2, UInt8(ascii: ":")), (Int(parts.tm_sec), 2, UInt8(ascii: ".")),
            (milliseconds, 3, UInt8(ascii: "Z")),
        ]
        for (value, width, separator) in fields {
            let digits = Array(String(value).utf8)
            line += [UInt8](repeating: UInt8(ascii: "0"), count: max(0, width - digits.count))
            line += digits
            line.append(separator)
        }
    }
}
