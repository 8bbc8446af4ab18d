import HTTP1

extension ServerSettings {
    /// What a connection served from the reserve (past `maxConnections`) still answers.
    static let reservedPaths: Set<String> = ["/health", "/health/ready", "/metrics"]

    /// The HTTP server configuration these settings describe.
    var httpConfiguration: HTTPServer.Configuration {
        let parser = HTTPParserLimits(maxHeaderSectionBytes: limits.maxHeaderBytes, maxBodyBytes: limits.maxBodyBytes)
        let read = Duration.milliseconds(Int64(timeouts.request * 1000))
        return HTTPServer.Configuration(
            host: host, port: port,
            limits: HTTPServer.Configuration.Limits(
                parser: parser, maxStreamLag: .milliseconds(Int64(min(limits.sseMaxLag, 86_400) * 1000))),
            timeouts: HTTPServer.Configuration.Timeouts(
                headerRead: read, bodyRead: read, request: read,
                idleKeepAlive: .milliseconds(Int64(timeouts.idle * 1000))),
            maxConnections: limits.maxConnections, reservedPaths: Self.reservedPaths)
    }
}
