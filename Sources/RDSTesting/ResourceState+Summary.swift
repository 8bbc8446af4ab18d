import RDS

extension ResourceState {
    /// A short text form for exact-sequence assertions: `initialized`, `loading(nil)`,
    /// `loading(v)`, `loaded(v, service)`, `failed(fetch_failed, cached: v)` (the error's outermost code).
    public var summary: String {
        switch self {
        case .initialized:
            return "initialized"
        case .loading(let previous):
            return "loading(\(previous.map { "\($0)" } ?? "nil"))"
        case .loaded(let value, let origin, _):
            return "loaded(\(value), \(origin.rawValue))"
        case .failed(let error, let cached):
            let code = ErrorChain(error).links.first?.code ?? "unknown"
            return "failed(\(code), cached: \(cached.map { "\($0)" } ?? "nil"))"
        }
    }
}
