import HTTP1
import Synchronization

/// Passes every request to `inner`, counting those answered on the `async` path (`handle(_:)`):
/// what a request answered on the loop never reaches.
final class AsyncCountingHandler<Inner: HTTPHandler>: HTTPHandler {
    let inner: Inner
    private let counted = Mutex(0)

    init(_ inner: Inner) { self.inner = inner }

    /// Requests answered by `handle(_:)` so far.
    var asyncCalls: Int { counted.withLock { $0 } }

    func respondImmediately(to request: inout HTTPRequest) -> HTTPResponse? { inner.respondImmediately(to: &request) }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        counted.withLock { $0 += 1 }
        return await inner.handle(request)
    }
}
