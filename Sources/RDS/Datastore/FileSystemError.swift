#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call of ``FileDatastore``, kept as the inner link of a ``DatastoreError``.
///
/// Carries the call and `errno` only: no paths, which may reveal more than a client should see.
struct FileSystemError: ChainedError {
    /// The system call that failed, such as `open` or `write`.
    let operation: String
    /// The `errno` it set.
    let errorNumber: Int32

    var code: String { "file_system_error" }
    var message: String { "\(operation) failed: \(String(cString: strerror(errorNumber)))" }
    var details: [String: String] { ["errno": String(errorNumber)] }
    var inner: (any Error)? { nil }

    /// Captures the current `errno` for `operation`.
    static func current(_ operation: String) -> FileSystemError {
        FileSystemError(operation: operation, errorNumber: errno)
    }
}
