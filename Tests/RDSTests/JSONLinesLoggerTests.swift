import Foundation
import RDS
import RDSTesting
import Synchronization
import Testing

struct JSONLinesLoggerTests {
    /// Collects the lines a logger writes.
    private final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func append(_ line: String) { lines.withLock { $0.append(line) } }
    }

    private static let start = Date(timeIntervalSince1970: 1_767_225_600)

    private static func makeLogger(_ level: LogLevel = .debug, at time: Date = start) -> (JSONLinesLogger, Lines) {
        let lines = Lines()
        let logger = JSONLinesLogger(minimumLevel: level, clock: ManualClock(start: time), write: lines.append)
        return (logger, lines)
    }

    private static func object(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func log_WritesOneJSONObject_WithTimeLevelEventThenSortedFields() throws {
        let (logger, lines) = Self.makeLogger(at: Self.start + 0.123_9)
        logger.log(.warning, "fetch_failed", ["status": 503, "key": "london", "retry": true, "after": 1.5])
        #expect(
            lines.all == [
                #"{"time":"2026-01-01T00:00:00.123Z","level":"warning","event":"fetch_failed","#
                    + #""after":1.5,"key":"london","retry":true,"status":503}"#
            ])
    }

    @Test func logOrderedFields_WritesTheSameLine_AsTheDictionaryForm() {
        let (logger, lines) = Self.makeLogger(.info, at: Self.start + 0.123_9)
        let fields: [(name: String, value: LogValue)] = [
            ("after", 1.5), ("key", "london"), ("retry", true), ("status", 503),
        ]
        logger.log(.warning, "fetch_failed", orderedFields: fields)
        logger.log(.warning, "fetch_failed", Dictionary(uniqueKeysWithValues: fields))
        logger.log(.debug, "dropped", orderedFields: fields)
        #expect(lines.all.count == 2)
        #expect(lines.all.first == lines.all.last)
    }

    @Test func logOrderedFields_DefaultImplementation_ForwardsTheFieldsAsADictionary() {
        let logger = RecordingLogger()
        logger.log(.info, "request", orderedFields: [("method", "GET"), ("status", 200)])
        #expect(logger.entries.map(\.event) == ["request"])
        #expect(logger.entries.first?.fields == ["method": "GET", "status": 200])
    }

    @Test func log_DropsEvents_BelowTheMinimumLevel() {
        let (logger, lines) = Self.makeLogger(.warning)
        logger.log(.debug, "noise", [:])
        logger.log(.info, "noise", [:])
        logger.log(.warning, "kept", [:])
        logger.log(.error, "kept", [:])
        #expect(lines.all.count == 2)
        #expect(lines.all.allSatisfy { $0.contains(#""event":"kept""#) })
    }

    @Test func log_EscapesQuotesBackslashesAndControlCharacters() throws {
        let (logger, lines) = Self.makeLogger()
        let nasty = "say \"hi\"\\ \n\r\t\u{8}\u{C}\u{0}\u{1F} Zürich 東京 🌧️ \u{2028}"
        logger.log(.info, nasty, [nasty: .string(nasty)])
        let line = try #require(lines.all.first)
        #expect(!line.contains("\n") && !line.contains("\r") && !line.contains("\u{0}"))
        #expect(line.contains(#"\"hi\"\\ \n\r\t\b\f\u0000\u001f"#))
        let object = try Self.object(line)
        #expect(object["event"] as? String == nasty)
        #expect(object[nasty] as? String == nasty)
    }

    /// Strings are searched for bytes to escape eight at a time: each such byte, at every position
    /// of strings around the word size, among ASCII and multi-byte UTF-8, is escaped, and nothing
    /// else is.
    @Test(arguments: ["\"", "\\", "\n", "\u{0}", "\u{1F}"])
    func log_EscapesABytePlacedAnywhereInAString(special: String) throws {
        let (logger, lines) = Self.makeLogger()
        for length in 0..<20 {
            for position in 0...length {
                for filler in ["a", "é", "~"] {
                    let text = String(repeating: filler, count: position) + special
                        + String(repeating: filler, count: length - position)
                    logger.log(.info, "escape", ["text": .string(text)])
                    let line = try #require(lines.all.last)
                    #expect(try Self.object(line)["text"] as? String == text)
                    #expect(line.utf8.allSatisfy { $0 >= 0x20 })
                }
            }
        }
        let plain = String(repeating: "~é\u{7F}a", count: 9)
        logger.log(.info, "plain", ["text": .string(plain)])
        #expect(try #require(lines.all.last).contains("\"text\":\"\(plain)\""))
    }

    /// The line is written into memory sized beforehand for its longest form: every byte an
    /// escape, numbers at their longest, renamed envelope fields.
    @Test func log_WritesLinesAtTheirLongest_Whole() throws {
        let (logger, lines) = Self.makeLogger(at: Date(timeIntervalSince1970: 253_402_300_799.999))
        let controls = String(repeating: "\u{01}", count: 1_000)
        logger.log(
            .warning, controls,
            [
                "time": .string(controls), "event": .int(.min), "level": .double(-.greatestFiniteMagnitude),
                "tiny": .double(-.leastNonzeroMagnitude), "nan": .double(-.infinity), controls: .bool(false),
            ])
        #expect(lines.all.count == 1)
        let line = try #require(lines.all.first)
        #expect(line.hasPrefix(#"{"time":"9999-12-31T23:59:59."#))
        #expect(line.contains(#""level":"warning","event":"\u0001\u0001"#))
        let object = try Self.object(line)
        #expect(object["event"] as? String == controls)
        #expect(object["field.time"] as? String == controls)
        #expect((object["field.event"] as? NSNumber)?.int64Value == .min)
        #expect(object["field.level"] as? Double == -.greatestFiniteMagnitude)
        #expect(object["tiny"] as? Double == -.leastNonzeroMagnitude)
        #expect(object["nan"] as? String == "-Infinity")
        #expect(object[controls] as? Bool == false)
    }

    @Test func log_RenamesFieldsThatWouldOverwriteTheEnvelope() throws {
        let (logger, lines) = Self.makeLogger()
        logger.log(.error, "real", ["event": "fake", "time": 1, "level": "debug"])
        let object = try Self.object(try #require(lines.all.first))
        #expect(object["event"] as? String == "real")
        #expect(object["level"] as? String == "error")
        #expect(object["field.event"] as? String == "fake")
        #expect(object["field.time"] as? Int == 1)
        #expect(object["field.level"] as? String == "debug")
    }

    @Test func log_WritesNonFiniteNumbersAsStrings_SoTheLineStaysJSON() throws {
        let (logger, lines) = Self.makeLogger()
        logger.log(.info, "numbers", ["nan": .double(.nan), "inf": .double(.infinity), "tiny": 0.000_01, "n": -7])
        let object = try Self.object(try #require(lines.all.first))
        #expect(object["nan"] as? String == "NaN")
        #expect(object["inf"] as? String == "Infinity")
        #expect(object["tiny"] as? Double == 0.000_01)
        #expect(object["n"] as? Int == -7)
    }

    @Test(arguments: [
        (0.999_9, "2026-01-01T00:00:00.999Z"), (59.5, "2026-01-01T00:00:59.500Z"),
        (-0.25, "2025-12-31T23:59:59.750Z"), (86_400 * 59 + 3_723.004_5, "2026-03-01T01:02:03.004Z"),
    ])
    func log_FormatsTimeAsUTCWithMilliseconds(offset: TimeInterval, expected: String) throws {
        let (logger, lines) = Self.makeLogger(at: Self.start + offset)
        logger.log(.info, "tick", [:])
        let object = try Self.object(try #require(lines.all.first))
        #expect(object["time"] as? String == expected)
    }

    /// The calendar part is worked out once per second and reused: lines within a second, in the
    /// next one and back in an earlier one each carry their own time.
    @Test func log_FormatsEachLinesOwnTime_WhenSecondsRepeatAndChange() throws {
        let clock = ManualClock(start: Self.start + 0.25)
        let lines = Lines()
        let logger = JSONLinesLogger(minimumLevel: .debug, clock: clock, write: lines.append)
        for step in [0.5, 1.0, 3_600, -3_601.25] {
            logger.log(.info, "tick", [:])
            clock.advance(by: step)
        }
        logger.log(.info, "tick", [:])
        let times = try lines.all.map { try Self.object($0)["time"] as? String }
        #expect(times == [
            "2026-01-01T00:00:00.250Z", "2026-01-01T00:00:00.750Z", "2026-01-01T00:00:01.750Z",
            "2026-01-01T01:00:01.750Z", "2026-01-01T00:00:00.500Z",
        ])
    }

    // Fields written through a `LogFieldWriter`, prepared names and fields among them.

    private static let method = PreparedLogField("method", "GET")
    private static let time = PreparedLogField("time", 7)
    private static let path = PreparedLogName("path")
    private static let status = PreparedLogName("status")
    private static let event = PreparedLogName("event")

    @Test func logWritingFields_WritesTheSameLine_AsOrderedFields() {
        let (logger, lines) = Self.makeLogger(.info, at: Self.start + 0.25)
        let path = "/weather/\"oslo\"\n"
        logger.log(.info, "request") { fields in
            fields.write(Self.event, string: "fake")
            fields.write("key", .double(1.5))
            fields.write(Self.method)
            fields.write(Self.path, string: path[...])
            fields.write(Self.status, int: -503)
            fields.write(Self.time)
        }
        logger.log(
            .info, "request",
            orderedFields: [
                ("event", "fake"), ("key", 1.5), ("method", "GET"), ("path", .string(path)), ("status", -503),
                ("time", 7),
            ])
        #expect(lines.all.count == 2)
        #expect(lines.all.first == lines.all.last)
        #expect(lines.all.first?.contains(#","field.event":"fake","key":1.5,"method":"GET","#) == true)
        #expect(lines.all.first?.hasSuffix(#""path":"/weather/\"oslo\"\n","status":-503,"field.time":7}"#) == true)
    }

    /// A value known to need no escape (a request id) is written as a string value is, and
    /// collected as a string by other loggers.
    @Test func logWritingFields_WritesAVerbatimValue_AsAString() {
        let (logger, lines) = Self.makeLogger(.info, at: Self.start)
        let id = "0123456789abcdef.ABC_-x"
        logger.log(.info, "request") { $0.write(Self.path, verbatim: id) }
        logger.log(.info, "request") { $0.write(Self.path, string: id) }
        #expect(lines.all.count == 2 && lines.all.first == lines.all.last)
        #expect(lines.all.first?.hasSuffix(#""path":"0123456789abcdef.ABC_-x"}"#) == true)
        let recording = RecordingLogger()
        recording.log(.info, "request") { $0.write(Self.path, verbatim: id) }
        #expect(recording.entries.first?.fields == ["path": .string(id)])
    }

    @Test func logWritingFields_WritesASubstring_AsItsOwnBytesOnly() {
        let (logger, lines) = Self.makeLogger(.info, at: Self.start)
        let target = "/cities/\"oslo\"\n?units=metric"
        let path = target[target.index(target.startIndex, offsetBy: 7)..<target.firstIndex(of: "?")!]
        logger.log(.info, "request") { $0.write(Self.path, string: path) }
        #expect(lines.all.first?.hasSuffix(#""path":"/\"oslo\"\n"}"#) == true, "\(lines.all)")
    }

    @Test(arguments: [
        (Int64(21_500), "0.0215"), (0, "0.0"), (2_005_000_000, "2005.0"), (3_000_000_001, "3000.000001"),
        (-1_500_000_000, "-1500.0"), (-250_000, "-0.25"), (86_400 * 365 * 1_000_000_000, "31536000000.0"),
        (.max, "9223372036854.775807"), (.min, "-9223372036854.775808"),
    ])
    func logWritingFields_WritesMilliseconds_FromTheDurationsNanoseconds(nanoseconds: Int64, expected: String) throws {
        let (logger, lines) = Self.makeLogger(.info, at: Self.start + 0.25)
        logger.log(.info, "tick") { $0.write(PreparedLogName("duration_ms"), durationNanoseconds: nanoseconds) }
        let line = try #require(lines.all.first)
        #expect(line.hasSuffix(#","duration_ms":\#(expected)}"#))
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["duration_ms"] is NSNumber)
    }

    /// A line longer than the writer's first memory (a kilobyte) is written again, whole.
    @Test func logWritingFields_WritesFieldsBeyondTheFirstKilobyte_Whole() throws {
        let (logger, lines) = Self.makeLogger(.info, at: Self.start + 0.25)
        let long = String(repeating: "\u{01}é", count: 700)
        logger.log(.info, "long") { fields in
            fields.write(Self.method)
            fields.write(Self.path, string: long)
            fields.write(Self.status, int: 200)
        }
        #expect(lines.all.count == 1)
        let line = try #require(lines.all.first)
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["path"] as? String == long)
        #expect(object["method"] as? String == "GET")
        #expect(object["status"] as? Int == 200)
    }

    @Test func logWritingFields_DefaultImplementation_PassesTheFieldsByName() {
        let logger = RecordingLogger()
        logger.log(.info, "request") { fields in
            fields.write(PreparedLogName("duration_ms"), durationNanoseconds: 1_500_000)
            fields.write(Self.method)
            fields.write(Self.path, string: "/x"[...])
            fields.write(Self.status, int: 200)
            fields.write("z", true)
        }
        #expect(
            logger.entries.first?.fields == [
                "duration_ms": .double(1.5), "method": "GET", "path": "/x", "status": 200, "z": true,
            ])
    }

    @Test func logWritingFields_SkipsTheFields_BelowTheMinimumLevel() {
        let (logger, lines) = Self.makeLogger(.info, at: Self.start + 0.25)
        var called = false
        logger.log(.debug, "noise") { _ in called = true }
        #expect(lines.all.isEmpty)
        #expect(!called)
    }
}
