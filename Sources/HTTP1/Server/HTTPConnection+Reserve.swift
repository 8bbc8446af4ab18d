extension HTTPConnection {
    /// For a connection served from the reserve: answers a request for any path but the reserved
    /// ones (health checks) with 503 and closes; returns `true` when it did.
    func refusesOutsideReserve(_ request: HTTPRequest) -> Bool {
        guard !context.configuration.reservedPaths.contains(String(request.path)) else { return false }
        perform(machine.parseFailed(status: 503))
        return true
    }
}
