/// The error struct each layer specializes with its own `Kind`: a stable code (the kind's raw
/// value), a human-readable message, details and the wrapped error.
///
/// Every layer still has exactly one error type, named by a type alias
/// (`typealias DatastoreError = LayerError<DatastoreErrorKind>`), so `catch let error as
/// DatastoreError` tells the layers apart; only the storage is written once.
public struct LayerError<LayerKind: RawRepresentable & Sendable>: ChainedError where LayerKind.RawValue == String {
    /// What went wrong in this layer, e.g. `DatastoreError.Kind.readFailed`.
    public typealias Kind = LayerKind

    /// The kind of failure.
    public let kind: Kind
    /// A human-readable message; never a secret.
    public let message: String
    /// Extra context, such as `repository`, `key`, `service` or `status`; never a secret.
    public let details: [String: String]
    /// The wrapped error from the layer below, if any.
    public let inner: (any Error)?
    /// The stable code of ``kind``.
    public var code: String { kind.rawValue }

    /// Creates an error.
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - message: A human-readable explanation, without secrets.
    ///   - details: Extra context, without secrets.
    ///   - inner: The error this one wraps.
    public init(_ kind: Kind, _ message: String, details: [String: String] = [:], inner: (any Error)? = nil) {
        self.kind = kind
        self.message = message
        self.details = details
        self.inner = inner
    }
}
