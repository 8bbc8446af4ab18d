/// Replaces `${NAME}` and `${NAME:-default}` in configuration strings with environment values.
struct EnvironmentInterpolation {
    /// The environment to read.
    let environment: [String: String]

    /// Why a string could not be interpolated.
    enum Failure: Error, Equatable {
        /// `${NAME}` names a variable that is not set and has no default.
        case unset(String)
        /// A `${` without its `}`.
        case unclosed
    }

    /// The JSON tree (from `JSONSerialization`) with every string interpolated.
    /// - Throws: ``ConfigurationError`` naming the key path of the string that failed.
    func apply(to value: Any, file: String, path: [String] = []) throws(ConfigurationError) -> Any {
        switch value {
        case let string as String:
            do {
                return try interpolate(string)
            } catch .unset(let name) {
                throw ConfigurationError(
                    file: file, keyPath: KeyPath.render(path),
                    problem: "the environment variable \(name) is not set (write ${\(name):-default} for a default)")
            } catch {
                throw ConfigurationError(file: file, keyPath: KeyPath.render(path), problem: "\"${\" without its \"}\"")
            }
        case let array as [Any]:
            var result: [Any] = []
            for (index, element) in array.enumerated() {
                result.append(try apply(to: element, file: file, path: path + ["[\(index)]"]))
            }
            return result
        case let object as [String: Any]:
            var result: [String: Any] = [:]
            for (key, element) in object { result[key] = try apply(to: element, file: file, path: path + [key]) }
            return result
        default:
            return value
        }
    }

    /// `text` with each `${NAME}` / `${NAME:-default}` replaced.
    func interpolate(_ text: String) throws(Failure) -> String {
        guard text.contains("${") else { return text }
        var result = ""
        var rest = text[...]
        while let start = rest.range(of: "${") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { throw .unclosed }
            let expression = rest[start.upperBound..<end]
            let name: Substring
            let fallback: Substring?
            if let separator = expression.range(of: ":-") {
                name = expression[..<separator.lowerBound]
                fallback = expression[separator.upperBound...]
            } else {
                (name, fallback) = (expression, nil)
            }
            if let value = environment[String(name)], !value.isEmpty {
                result += value
            } else if let fallback {
                result += fallback
            } else {
                throw .unset(String(name))
            }
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }
}
