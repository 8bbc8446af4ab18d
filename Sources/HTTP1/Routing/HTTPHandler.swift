/// Answers requests. The server calls it once per request, in order per connection.
public protocol HTTPHandler: Sendable {
    /// Called first, on the server's event-loop thread: returns a response when the answer is
    /// at hand without waiting (a cache hit), or `nil` to take the `async` path. Must never block.
    /// What it worked out on the way (a matched route) may be left in ``HTTPRequest/handlerNote``:
    /// `handle(_:)` gets the request with it.
    func respondImmediately(to request: inout HTTPRequest) -> HTTPResponse?
    /// Called on the event-loop thread when ``respondImmediately(to:)`` gave `nil`, before a task
    /// is started: returns `true` when the handler has started work on this loop that ends with
    /// `answer`'s ``HTTPLoopAnswer/respond(_:)`` (an upstream call on the loop, say), `false` to
    /// take the `async` path. Must never block.
    func answerOnLoop(_ request: HTTPRequest, _ answer: HTTPLoopAnswer) -> Bool
    /// Answers a request. The task is cancelled when the client goes away before the answer.
    func handle(_ request: HTTPRequest) async -> HTTPResponse
}

extension HTTPHandler {
    /// By default every request takes the `async` path.
    public func respondImmediately(to request: inout HTTPRequest) -> HTTPResponse? { nil }

    /// By default nothing is answered later on the loop.
    public func answerOnLoop(_ request: HTTPRequest, _ answer: HTTPLoopAnswer) -> Bool { false }
}
