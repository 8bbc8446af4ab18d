import Foundation

/// A strict parser of the Prometheus text exposition format (0.0.4), written for the tests:
/// every line must match the grammar, `# HELP` and `# TYPE` come before a family's samples,
/// families are contiguous, series are unique, and histograms are consistent.
struct PrometheusTextParser {
    struct Family: Equatable {
        var name: String
        var help: String?
        var type: String
        var samples: [Sample]
    }

    struct Sample: Equatable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    struct Failure: Error, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    private static let types: Set<String> = ["counter", "gauge", "histogram", "summary", "untyped"]

    /// Parses `text` into families in order, or throws the first violation.
    static func parse(_ text: String) throws -> [Family] {
        var parser = PrometheusTextParser()
        guard text.isEmpty || text.hasSuffix("\n") else {
            throw Failure(line: 0, message: "text must end with a newline")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        for (index, line) in lines.enumerated() {
            parser.lineNumber = index + 1
            try parser.parseLine(String(line))
        }
        try parser.finishFamily()
        return parser.families
    }

    private var families: [Family] = []
    private var current: Family?
    private var pendingHelp: (name: String, help: String)?
    private var seenNames: Set<String> = []
    private var seenSeries: Set<String> = []
    private var lineNumber = 0

    private mutating func parseLine(_ line: String) throws {
        guard !line.isEmpty else { throw fail("empty line") }
        if line.hasPrefix("#") {
            try parseComment(line)
        } else {
            try parseSample(line)
        }
    }

    private mutating func parseComment(_ line: String) throws {
        let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, parts[0] == "#", parts[1] == "HELP" || parts[1] == "TYPE" else {
            throw fail("only '# HELP name text' and '# TYPE name type' comments are expected: \(line)")
        }
        let name = parts[2]
        guard Self.isMetricName(name) else { throw fail("bad metric name '\(name)'") }
        if parts[1] == "HELP" {
            guard parts.count == 4 else { throw fail("HELP without text") }
            try finishFamily()
            guard pendingHelp == nil else { throw fail("two HELP lines in a row") }
            pendingHelp = (name, try Self.unescape(parts[3], allowQuote: false, line: lineNumber))
        } else {
            guard parts.count == 4, Self.types.contains(parts[3]) else { throw fail("bad TYPE line: \(line)") }
            try finishFamily()
            if let pendingHelp, pendingHelp.name != name {
                throw fail("HELP for \(pendingHelp.name) precedes TYPE of \(name)")
            }
            guard seenNames.insert(name).inserted else { throw fail("family \(name) declared twice") }
            current = Family(name: name, help: pendingHelp?.help, type: parts[3], samples: [])
            pendingHelp = nil
        }
    }

    private mutating func parseSample(_ line: String) throws {
        guard var family = current else { throw fail("sample before any TYPE line: \(line)") }
        var rest = Substring(line)
        let name = String(rest.prefix { $0 != "{" && $0 != " " })
        rest = rest.dropFirst(name.count)
        guard Self.isMetricName(name) else { throw fail("bad sample name '\(name)'") }
        guard Self.allowedSampleNames(family).contains(name) else {
            throw fail("sample \(name) does not belong to family \(family.name) of type \(family.type)")
        }
        var labels: [String: String] = [:]
        var labelOrder: [String] = []
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let labelName = String(rest.prefix { $0 != "=" })
                guard Self.isLabelName(labelName) else { throw fail("bad label name '\(labelName)'") }
                rest = rest.dropFirst(labelName.count)
                guard rest.hasPrefix("=\"") else { throw fail("label \(labelName) lacks =\"") }
                rest = rest.dropFirst(2)
                var raw = ""
                var escaping = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if escaping {
                        raw.append("\\")
                        raw.append(character)
                        escaping = false
                    } else if character == "\\" {
                        escaping = true
                    } else if character == "\"" {
                        break
                    } else if character == "\n" {
                        throw fail("raw newline in a label value")
                    } else {
                        raw.append(character)
                    }
                }
                guard labels[labelName] == nil else { throw fail("label \(labelName) repeated") }
                labels[labelName] = try Self.unescape(raw, allowQuote: true, line: lineNumber)
                labelOrder.append(labelName)
                if rest.first == "," {
                    rest = rest.dropFirst()
                } else if rest.first != "}" {
                    throw fail("expected , or } after label \(labelName)")
                }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " " else { throw fail("expected one space before the value") }
        let fields = rest.dropFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard (1...2).contains(fields.count), let value = Self.parseValue(fields[0]) else {
            throw fail("bad value in: \(line)")
        }
        if fields.count == 2, Int64(fields[1]) == nil { throw fail("bad timestamp in: \(line)") }
        let seriesKey =
            name + "{" + labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        guard seenSeries.insert(seriesKey).inserted else { throw fail("series repeated: \(seriesKey)") }
        if family.type == "counter", value.isNaN || value < 0 { throw fail("counter \(name) is \(value)") }
        if family.type == "histogram" {
            let isBucket = name == family.name + "_bucket"
            guard isBucket == (labels["le"] != nil) else { throw fail("le belongs on _bucket samples only") }
        }
        family.samples.append(Sample(name: name, labels: labels, value: value))
        current = family
    }

    private mutating func finishFamily() throws {
        guard let family = current else { return }
        current = nil
        if family.type == "histogram" { try Self.checkHistogram(family, line: lineNumber) }
        families.append(family)
    }

    private static func allowedSampleNames(_ family: Family) -> Set<String> {
        switch family.type {
        case "histogram": ["_bucket", "_sum", "_count"].map { family.name + $0 }.reduce(into: []) { $0.insert($1) }
        case "summary": [family.name, family.name + "_sum", family.name + "_count"]
        default: [family.name]
        }
    }

    /// Per series: le bounds ascending, counts non-decreasing, `+Inf` present and equal to `_count`, `_sum` present.
    private static func checkHistogram(_ family: Family, line: Int) throws {
        func seriesKey(_ sample: Sample) -> String {
            sample.labels.filter { $0.key != "le" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: ",")
        }
        let groups = Dictionary(grouping: family.samples, by: seriesKey)
        for (key, samples) in groups {
            let buckets = samples.filter { $0.name == family.name + "_bucket" }
            var previousBound = -Double.infinity
            var previousCount = 0.0
            for bucket in buckets {
                guard let le = bucket.labels["le"], let bound = parseValue(Substring(le)), !bound.isNaN else {
                    throw Failure(line: line, message: "\(family.name){\(key)}: bad le")
                }
                guard bound > previousBound else {
                    throw Failure(line: line, message: "\(family.name){\(key)}: le not ascending")
                }
                guard bucket.value >= previousCount else {
                    throw Failure(line: line, message: "\(family.name){\(key)}: bucket counts not cumulative")
                }
                previousBound = bound
                previousCount = bucket.value
            }
            guard previousBound == .infinity else {
                throw Failure(line: line, message: "\(family.name){\(key)}: no +Inf bucket")
            }
            guard let count = samples.first(where: { $0.name == family.name + "_count" }),
                samples.contains(where: { $0.name == family.name + "_sum" })
            else { throw Failure(line: line, message: "\(family.name){\(key)}: _sum or _count missing") }
            guard count.value == previousCount else {
                throw Failure(
                    line: line, message: "\(family.name){\(key)}: +Inf bucket \(previousCount) != _count \(count.value)"
                )
            }
        }
    }

    /// Go's `ParseFloat` grammar as Prometheus accepts it, plus `+Inf`, `-Inf`, `NaN`.
    private static func parseValue(_ text: Substring) -> Double? {
        switch text {
        case "+Inf", "Inf": return .infinity
        case "-Inf": return -.infinity
        case "NaN": return .nan
        default:
            let allowed = Set("0123456789+-.eE")
            guard !text.isEmpty, text.allSatisfy(allowed.contains) else { return nil }
            return Double(text)
        }
    }

    private static func unescape(_ text: String, allowQuote: Bool, line: Int) throws -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                switch character {
                case "\\": result.append("\\")
                case "n": result.append("\n")
                case "\"" where allowQuote: result.append("\"")
                default: throw Failure(line: line, message: "bad escape \\\(character)")
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        guard !escaping else { throw Failure(line: line, message: "dangling backslash") }
        return result
    }

    private static func isMetricName(_ name: String) -> Bool {
        name.wholeMatch(of: /[a-zA-Z_:][a-zA-Z0-9_:]*/) != nil
    }

    private static func isLabelName(_ name: String) -> Bool {
        name.wholeMatch(of: /[a-zA-Z_][a-zA-Z0-9_]*/) != nil
    }

    private func fail(_ message: String) -> Failure {
        Failure(line: lineNumber, message: message)
    }
}
