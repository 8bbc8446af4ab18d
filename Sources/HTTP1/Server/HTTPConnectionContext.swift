/// What every connection of one server shares: the handler, the configuration and the
/// connection count.
struct HTTPConnectionContext: Sendable {
    /// Answers requests.
    let handler: any HTTPHandler
    /// The server's configuration.
    let configuration: HTTPServer.Configuration
    /// Counts open connections (released when a connection closes).
    let tracker: ConnectionTracker
    /// The configuration's timeouts in nanoseconds, as the connections' state machines keep them.
    let timeouts: HTTPConnectionStateMachine.Timeouts

    init(handler: any HTTPHandler, configuration: HTTPServer.Configuration, tracker: ConnectionTracker) {
        self.handler = handler
        self.configuration = configuration
        self.tracker = tracker
        timeouts = HTTPConnectionStateMachine.Timeouts(configuration.timeouts)
    }
}
