extension Logger {
    /// Records one event whose fields are given in ascending name order, each name once.
    ///
    /// Hot paths (one line per request) call this to skip building and sorting a dictionary;
    /// by default it forwards to ``log(_:_:_:)``. An implementation may rely on the order.
    /// - Parameters:
    ///   - level: How important the event is.
    ///   - event: A short, stable event name such as `request`.
    ///   - orderedFields: Structured context, sorted by name, without duplicate names.
    public func log(_ level: LogLevel, _ event: String, orderedFields: [(name: String, value: LogValue)]) {
        log(level, event, Dictionary(orderedFields, uniquingKeysWith: { _, last in last }))
    }

    /// Records one event whose fields `writeFields` writes, in ascending name order, each name once.
    ///
    /// Hot paths (one line per request) call this with names and values prepared once (see
    /// ``LogFieldWriter``); by default the fields are collected and passed to
    /// ``log(_:_:orderedFields:)``.
    public func log(_ level: LogLevel, _ event: String, writingFields writeFields: (inout LogFieldWriter) -> Void) {
        var fields = LogFieldWriter()
        writeFields(&fields)
        log(level, event, orderedFields: fields.collected)
    }
}
