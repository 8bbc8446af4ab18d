import Foundation
import RDS

/// Reads the API key from a file (e.g. a mounted secret) on every call, so rotation needs no restart.
/// Leading and trailing whitespace, such as a final newline, is ignored.
public struct FileAPIKeyProvider: APIKeyProvider {
    /// The file's path.
    public let path: String

    /// Creates a provider reading the file at `path`.
    public init(path: String) { self.path = path }

    /// The file's trimmed contents.
    /// - Throws: ``ServiceError`` (`unavailable`) naming the file when it is missing, unreadable or blank.
    public func apiKey() throws -> String {
        let contents: String
        do {
            contents = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ServiceError(
                .unavailable, "Cannot read the API key file \(path)", details: ["api_key_source": path])
        }
        let key = contents.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else {
            throw ServiceError(.unavailable, "The API key file \(path) is empty", details: ["api_key_source": path])
        }
        return key
    }
}
