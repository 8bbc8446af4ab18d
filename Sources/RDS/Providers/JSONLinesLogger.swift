import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The second last written by ``JSONLinesLogger/writeTimestamp(_:to:)`` and its text up to the
/// seconds (`YYYY-MM-DDTHH:MM:SS`): the calendar is worked out once per second, not per line.
/// The text is held in words, read out under the lock with no reference to count.
private let lastSecond = Mutex<(second: Double, text: JSONLinesLogger.SecondText)>((.nan, (0, 0, 0)))

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
        let sorted = fields.sorted { $0.key < $1.key }
        log(level, event) { line in
            for (name, value) in sorted { line.write(name, value) }
        }
    }

    /// Like ``log(_:_:_:)`` for fields already sorted by name: writes them in the given order,
    /// without building or sorting a dictionary.
    public func log(_ level: LogLevel, _ event: String, orderedFields: [(name: String, value: LogValue)]) {
        guard level >= minimumLevel else { return }
        log(level, event) { line in
            for (name, value) in orderedFields { line.write(name, value) }
        }
    }

    /// Writes the line of an event whose fields `writeFields` writes straight into it, when
    /// `level` is at least ``minimumLevel``. A line is written into a kilobyte on the stack; one
    /// whose fields do not fit is written again, into memory of the size they asked for.
    public func log(_ level: LogLevel, _ event: String, writingFields writeFields: (inout LogFieldWriter) -> Void) {
        guard level >= minimumLevel else { return }
        let now = clock.now
        var needed = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.stackLineBytes) { memory in
            writeLine(level, event, at: now, into: memory, writeFields)
        }
        // At most twice: a first pass that found no room for the envelope could not count the fields.
        while let bytes = needed {
            let memory = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes)
            defer { memory.deallocate() }
            needed = writeLine(level, event, at: now, into: memory, writeFields)
        }
    }

    /// The bytes on the stack a line is first written into.
    private static var stackLineBytes: Int { 1024 }

    /// Writes the line into `memory` and hands it to the output; when its fields do not fit,
    /// hands nothing and returns the bytes the whole line needs.
    private func writeLine(
        _ level: LogLevel, _ event: String, at now: Date, into memory: UnsafeMutableBufferPointer<UInt8>,
        _ writeFields: (inout LogFieldWriter) -> Void
    ) -> Int? {
        let envelope = 64 + level.name.utf8.count + JSONLineBuffer.stringBound(event)
        guard memory.count >= envelope else { return envelope }
        var buffer = JSONLineBuffer(writingAt: memory.baseAddress!)
        buffer.write("{\"time\":\"")
        Self.writeTimestamp(now, to: &buffer)
        buffer.write("\",\"level\":\"")
        buffer.writeVerbatim(level.name)
        buffer.write("\",\"event\":")
        buffer.writeString(event)
        // One byte kept for the closing brace.
        var fields = LogFieldWriter(continuing: buffer, room: memory.count - buffer.count - 1)
        writeFields(&fields)
        guard var line = fields.writtenLine else { return envelope + fields.needed }
        line.write(UInt8(ascii: "}"))
        let bytes = UnsafeBufferPointer(start: memory.baseAddress, count: line.count)
        switch output {
        case .buffered(let writer): writer.append(line: bytes)
        case .lines(let write): write(String(decoding: bytes, as: UTF8.self))
        }
        return nil
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
        var text =
            lastSecond.withLock { $0.second == seconds ? $0.text : nil } ?? {
                let text = secondText(seconds)
                lastSecond.withLock { $0 = (seconds, text) }
                return text
            }()
        withUnsafeBytes(of: &text) { $0.withMemoryRebound(to: UInt8.self) { line.write(UnsafeBufferPointer(rebasing: $0[..<19])) } }
        line.write(UInt8(ascii: "."))
        line.writeDigits(UInt(milliseconds), width: 3)
        line.write(UInt8(ascii: "Z"))
    }

    /// The 19 bytes of `YYYY-MM-DDTHH:MM:SS`, in three words.
    typealias SecondText = (UInt64, UInt64, UInt64)

    /// `YYYY-MM-DDTHH:MM:SS` of a whole second since 1970, in UTC.
    private static func secondText(_ seconds: Double) -> SecondText {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        var words: SecondText = (0, 0, 0)
        withUnsafeMutableBytes(of: &words) { $0.withMemoryRebound(to: UInt8.self) { memory in
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
        } }
        return words
    }
}
