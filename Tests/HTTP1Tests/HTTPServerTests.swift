import Testing

@testable import HTTP1

struct HTTPServerTests {
    static let echoPath = ClosureHTTPHandler { request in
        HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], bytes: Array(request.target.utf8))
    }

    @Test func start_BindsKernelChosenPort_WhenPortIsZero() async throws {
        try await HTTPServer.withRunning(handler: Self.echoPath) { server in
            #expect(server.port > 0)
            let client = try await RawHTTPClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let responses = RawHTTPResponses.parse(await client.readResponses(1))
            #expect(responses.map(\.status) == [200])
            #expect(responses.first?.body == "/hello")
        }
    }
}
