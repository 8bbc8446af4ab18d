import Foundation
import Glibc
import RDS
import Synchronization

/// Reads one secret from its ``SecretSource``: an environment variable once, when created; a file
/// whenever it has changed (its device, inode, size or modification time), so a rotated mounted
/// secret is picked up without a restart and an unchanged one costs one `stat`. A file modified
/// in the last two seconds is always read again, since two writes within one file-system clock
/// tick can leave the same stamp (git's "racy clean" case). Leading and trailing whitespace, such
/// as a final newline, is ignored.
public final class SecretReader: Sendable {
    /// Where the secret comes from.
    public let source: SecretSource
    /// What the secret is, for error messages: `API key`, `bearer token`, `client secret`.
    public let what: String
    private let environmentValue: String?
    private let cached = Mutex<(stamp: FileStamp, value: String)?>(nil)

    /// The identity of a file's contents as far as `stat` tells.
    private struct FileStamp: Equatable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: Int
        let modifiedNanoseconds: Int
    }

    /// Creates a reader.
    /// - Parameters:
    ///   - source: The variable or file.
    ///   - what: What the secret is, for error messages.
    ///   - environment: The environment a variable is read from (the process's by default).
    public init(
        _ source: SecretSource, what: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.source = source
        self.what = what
        if case .environment(let name) = source {
            environmentValue = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            environmentValue = nil
        }
    }

    /// The secret, trimmed.
    /// - Throws: ``ServiceError`` (`unavailable`) naming the variable or file (never its contents)
    ///   when it is unset, missing, unreadable or blank.
    public func read() throws -> String {
        switch source {
        case .environment(let name):
            guard let environmentValue, !environmentValue.isEmpty else {
                throw failure("The \(what) variable \(name) is not set")
            }
            return environmentValue
        case .file(let path):
            return try readFile(path)
        }
    }

    private func readFile(_ path: String) throws -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { throw failure("Cannot read the \(what) file \(path)") }
        let stamp = FileStamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: info.st_mtim.tv_sec, modifiedNanoseconds: info.st_mtim.tv_nsec)
        let settled = Double(info.st_mtim.tv_sec) < Date().timeIntervalSince1970 - 2
        if settled, let known = cached.withLock({ $0 }), known.stamp == stamp { return known.value }
        let contents: String
        do {
            contents = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw failure("Cannot read the \(what) file \(path)")
        }
        let value = contents.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty else { throw failure("The \(what) file \(path) is empty") }
        cached.withLock { $0 = (stamp, value) }
        return value
    }

    private func failure(_ message: String) -> ServiceError {
        ServiceError(.unavailable, message, details: ["secret_source": source.location])
    }
}
