import Foundation

/// Reads a configuration file: JSON, `${ENV}` interpolation, `RDS_HOST` / `RDS_PORT` overrides,
/// strict decoding (unknown keys are errors), the default disk folder (``DefaultCacheFolder``)
/// when `cache.disk.path` is missing or empty, and validation.
public struct ConfigurationLoader: Sendable {
    /// The environment used for interpolation and overrides.
    public let environment: [String: String]

    /// Creates a loader reading `environment` (the process environment by default).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// Loads and validates the file at `path`.
    /// - Throws: ``ConfigurationError`` naming the file, the key path and what was expected.
    public func load(file path: String) throws(ConfigurationError) -> GatewayConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigurationError(file: path, keyPath: "", problem: "cannot be read (\(Self.reason(error)))")
        }
        return try load(data: data, file: path)
    }

    /// Loads and validates JSON `data`; `file` names it in errors.
    /// - Throws: ``ConfigurationError``.
    public func load(data: Data, file: String) throws(ConfigurationError) -> GatewayConfiguration {
        let tree: Any
        do {
            tree = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ConfigurationError(file: file, keyPath: "", problem: "is not valid JSON (\(Self.reason(error)))")
        }
        guard tree is [String: Any] else {
            throw ConfigurationError(file: file, keyPath: "", problem: "expected a JSON object at the top level")
        }
        if let duplicate = DuplicateKeyScanner.firstDuplicate(in: data) {
            throw ConfigurationError(
                file: file, keyPath: KeyPath.render(duplicate),
                problem: "appears twice in the same object; expected each key once")
        }
        let interpolated = try EnvironmentInterpolation(environment: environment).apply(to: tree, file: file)
        var configuration: GatewayConfiguration
        do {
            let json = try JSONSerialization.data(withJSONObject: interpolated)
            configuration = try JSONDecoder().decode(GatewayConfiguration.self, from: json)
        } catch let error as DecodingError {
            throw Self.configurationError(error, file: file)
        } catch {
            throw ConfigurationError(file: file, keyPath: "", problem: "cannot be decoded (\(Self.reason(error)))")
        }
        try applyOverrides(to: &configuration)
        if configuration.cache.disk?.path.isEmpty == true {
            configuration.cache.disk?.path = DefaultCacheFolder.path(forConfiguration: file, environment: environment)
        }
        try ConfigurationValidator(file: file).validate(configuration)
        return configuration
    }

    private func applyOverrides(to configuration: inout GatewayConfiguration) throws(ConfigurationError) {
        if let host = environment["RDS_HOST"], !host.isEmpty { configuration.server.host = host }
        if let text = environment["RDS_PORT"], !text.isEmpty {
            guard let port = Int(text), (0...65_535).contains(port) else {
                throw ConfigurationError(
                    file: "<environment>", keyPath: "RDS_PORT", problem: "expected a port number from 0 to 65535")
            }
            configuration.server.port = port
        }
    }

    private static func configurationError(_ error: DecodingError, file: String) -> ConfigurationError {
        switch error {
        case .typeMismatch(let type, let context):
            // "Expected to decode Int but found a string instead." gives what was found.
            let text = context.debugDescription
            let found = text.range(of: "found ").map { range in
                ", found " + text[range.upperBound...].replacingOccurrences(of: " instead.", with: "")
            }
            return ConfigurationError(
                file: file, keyPath: KeyPath.render(context.codingPath),
                problem: "expected \(describe(type))\(found ?? "")")
        case .valueNotFound(let type, let context):
            return ConfigurationError(
                file: file, keyPath: KeyPath.render(context.codingPath),
                problem: "expected \(describe(type)), found null")
        case .keyNotFound(let key, let context):
            return ConfigurationError(
                file: file, keyPath: KeyPath.render(context.codingPath + [key]), problem: "missing (required)")
        case .dataCorrupted(let context):
            return ConfigurationError(
                file: file, keyPath: KeyPath.render(context.codingPath), problem: context.debugDescription)
        @unknown default:
            return ConfigurationError(file: file, keyPath: "", problem: "cannot be decoded")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: "an integer"
        case is Double.Type: "a number"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is [Any].Type, is [String].Type: "an array"
        default: "an object"
        }
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        return (nsError.userInfo["NSDebugDescription"] as? String) ?? nsError.localizedDescription
    }
}
