import HTTP1

extension HTTPHandler {
    /// ``HTTPHandler/respondImmediately(to:)`` on a copy of `request` (for tests that do not
    /// pass the request on to `handle(_:)`).
    func respondImmediately(toCopyOf request: HTTPRequest) -> HTTPResponse? {
        var request = request
        return respondImmediately(to: &request)
    }
}
