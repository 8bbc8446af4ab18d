import Foundation
import RDS

/// Reads the API key from an environment variable, once, when created.
public struct EnvironmentAPIKeyProvider: APIKeyProvider {
    /// The variable's name.
    public let variable: String
    private let value: String?

    /// Creates a provider reading `variable` from `environment` (the process environment by default).
    public init(variable: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.variable = variable
        self.value = environment[variable]?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The variable's value.
    /// - Throws: ``ServiceError`` (`unavailable`) naming the variable when it is unset or empty.
    public func apiKey() throws -> String {
        guard let value, !value.isEmpty else {
            throw ServiceError(
                .unavailable, "The API key variable \(variable) is not set", details: ["api_key_source": variable])
        }
        return value
    }
}
