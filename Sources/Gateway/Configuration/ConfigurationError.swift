import RDS

/// A configuration that cannot be used: which file, which key, and what was expected.
///
/// The description reads `Config/gateway.json: repositories.weather.service: no service named
/// "wether"; expected one of: demo`. Values of secrets are never quoted.
public struct ConfigurationError: ChainedError, CustomStringConvertible, Equatable {
    /// The file (or `<environment>` for an override).
    public let file: String
    /// The key path, e.g. `repositories.weather.service`; empty for the file as a whole.
    public let keyPath: String
    /// What is wrong and what was expected.
    public let problem: String

    /// Creates an error.
    public init(file: String, keyPath: String, problem: String) {
        self.file = file
        self.keyPath = keyPath
        self.problem = problem
    }

    /// `config_invalid`.
    public var code: String { "config_invalid" }
    /// The whole sentence: file, key path, problem.
    public var message: String { description }
    /// The file and the key path.
    public var details: [String: String] { ["file": file, "key": keyPath] }
    /// Always `nil`.
    public var inner: (any Error)? { nil }
    /// `FILE: KEY.PATH: problem`.
    public var description: String { keyPath.isEmpty ? "\(file): \(problem)" : "\(file): \(keyPath): \(problem)" }

    /// Compares file, key path and problem.
    public static func == (lhs: ConfigurationError, rhs: ConfigurationError) -> Bool {
        lhs.file == rhs.file && lhs.keyPath == rhs.keyPath && lhs.problem == rhs.problem
    }
}
