/// A minimal structured logger, injected wherever something logs.
///
/// Implementations must be cheap when `level` is below their threshold. Callers never put
/// secrets into `event` or `fields`.
public protocol Logger: Sendable {
    /// Records one event.
    /// - Parameters:
    ///   - level: How important the event is.
    ///   - event: A short, stable event name such as `fetch_failed`.
    ///   - fields: Structured context.
    func log(_ level: LogLevel, _ event: String, _ fields: [String: LogValue])

    /// Records one event whose fields are already in ascending name order, each name once; see
    /// the default in `Logger+OrderedFields.swift`, which forwards to ``log(_:_:_:)``.
    func log(_ level: LogLevel, _ event: String, orderedFields: [(name: String, value: LogValue)])

    /// Records one event whose fields `writeFields` writes, in ascending name order, each name
    /// once; see the default in `Logger+OrderedFields.swift`, which collects them for
    /// ``log(_:_:orderedFields:)``. ``JSONLinesLogger`` writes them straight into the line, and
    /// may call `writeFields` again for a long line: it should do nothing but write them.
    func log(_ level: LogLevel, _ event: String, writingFields writeFields: (inout LogFieldWriter) -> Void)
}
