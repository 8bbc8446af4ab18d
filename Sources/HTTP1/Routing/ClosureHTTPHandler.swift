/// An `HTTPHandler` made of closures: handy for tests, benchmarks and small servers.
///
/// ```swift
/// let handler = ClosureHTTPHandler { request in HTTPResponse(status: 200, bytes: Array("hi".utf8)) }
/// ```
public struct ClosureHTTPHandler: HTTPHandler {
    private let immediate: @Sendable (HTTPRequest) -> HTTPResponse?
    private let asynchronous: @Sendable (HTTPRequest) async -> HTTPResponse

    /// A handler whose `respondImmediately(to:)` calls `immediate` (runs on the event loop: must
    /// not block) and whose `handle(_:)` calls `handle`.
    public init(
        immediate: @escaping @Sendable (HTTPRequest) -> HTTPResponse? = { _ in nil },
        handle: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
    ) {
        self.immediate = immediate
        self.asynchronous = handle
    }

    /// Answers from `immediate`.
    public func respondImmediately(to request: inout HTTPRequest) -> HTTPResponse? { immediate(request) }

    /// Answers from `handle`.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse { await asynchronous(request) }
}
