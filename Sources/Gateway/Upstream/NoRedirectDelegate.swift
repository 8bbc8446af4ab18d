import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Makes URLSession hand redirects back unfollowed: a gateway passes a 301 on as it came.
final class NoRedirectDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    /// Declines every redirect.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
