/// What every connection of one server shares: the handler, the configuration and the
/// connection count.
struct HTTPConnectionContext: Sendable {
    /// Answers requests.
    let handler: any HTTPHandler
    /// The server's configuration.
    let configuration: HTTPServer.Configuration
    /// Counts open connections (released when a connection closes).
    let tracker: ConnectionTracker
}
