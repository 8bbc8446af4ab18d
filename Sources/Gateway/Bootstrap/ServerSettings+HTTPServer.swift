import HTTP1

extension ServerSettings {
    /// What a connection served from the reserve (past `maxConnections`) still answers.
    static let reservedPaths: Set<String> = ["/health", "/health/ready", "/metrics"]

    /// The HTTP server configuration these settings describe.
    var httpConfiguration: HTTPServer.Configuration {
        // The request line may be half as long as the header section (at least 8 KiB), so a
        // larger `maxHeaderBytes` admits long `/events?topic=…` lists too.
        let parser = HTTPParserLimits(
            maxRequestLineBytes: max(8 * 1024, limits.maxHeaderBytes / 2), maxHeaderSectionBytes: limits.maxHeaderBytes,
            maxBodyBytes: limits.maxBodyBytes)
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
