/// Writes metric families in the Prometheus text exposition format, version 0.0.4.
///
/// Each family becomes `# HELP name text`, `# TYPE name type`, then its samples as
/// `name{label="value",…} value`. Help text escapes `\` and newline; label values also escape `"`.
public enum PrometheusTextRenderer {
    /// The `Content-Type` of the rendered text.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Renders `families` in the given order, each sample on its own line, ending with a newline.
    public static func render(_ families: [MetricFamilySnapshot]) -> String {
        var text = ""
        text.reserveCapacity(families.count * 256)
        for family in families {
            text += "# HELP \(family.name) \(escapeHelp(family.help))\n"
            text += "# TYPE \(family.name) \(family.type.rawValue)\n"
            for sample in family.samples {
                text += sample.name
                if !sample.labels.isEmpty {
                    text += "{"
                    text += sample.labels.map { "\($0.name)=\"\(escapeLabelValue($0.value))\"" }.joined(separator: ",")
                    text += "}"
                }
                text += " \(format(sample.value))\n"
            }
        }
        return text
    }

    /// Formats a sample value: integers without a fraction, `+Inf`, `-Inf`, `NaN`, otherwise the
    /// shortest decimal that reads back as the same `Double`.
    public static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value == .infinity { return "+Inf" }
        if value == -.infinity { return "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// Escapes a label value: `\` → `\\`, `"` → `\"`, newline → `\n`.
    public static func escapeLabelValue(_ value: String) -> String {
        escape(value, quotes: true)
    }

    /// Escapes help text: `\` → `\\`, newline → `\n`.
    public static func escapeHelp(_ help: String) -> String {
        escape(help, quotes: false)
    }

    /// Whether `name` matches `[a-zA-Z_:][a-zA-Z0-9_:]*`.
    public static func isValidMetricName(_ name: String) -> Bool {
        isValidName(name, allowingColon: true)
    }

    /// Whether `name` matches `[a-zA-Z_][a-zA-Z0-9_]*` and does not start with the reserved `__`.
    public static func isValidLabelName(_ name: String) -> Bool {
        isValidName(name, allowingColon: false) && !name.hasPrefix("__")
    }

    private static func escape(_ text: String, quotes: Bool) -> String {
        guard
            text.utf8.contains(where: {
                $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\n") || (quotes && $0 == UInt8(ascii: "\""))
            })
        else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 8)
        for character in text.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\"" where quotes: escaped += "\\\""
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    private static func isValidName(_ name: String, allowingColon: Bool) -> Bool {
        guard let first = name.utf8.first else { return false }
        func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || byte == UInt8(ascii: "_") || (allowingColon && byte == UInt8(ascii: ":"))
        }
        return isLetter(first)
            && name.utf8.allSatisfy { isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
