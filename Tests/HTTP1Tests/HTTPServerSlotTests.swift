import Testing

@testable import HTTP1

/// End to end over real sockets: a full server makes room for new clients, keeps answering its
/// reserved paths, and a trickling request cannot hold its slot past the request deadline.
@Suite(.timeLimit(.minutes(1)))
struct HTTPServerSlotTests {
    let handler = ClosureHTTPHandler { request in
        HTTPResponse(status: request.path == "/health" ? 200 : 204)
    } handle: { _ in
        HTTPResponse(status: 500)
    }

    @Test func full_ClosesLongestIdleConnection_AndServesNewClient() async throws {
        let configuration = HTTPServer.Configuration(
            host: "127.0.0.1", port: 0, maxConnections: 8, reservedConnections: 2, eventLoopThreads: 1)
        try await HTTPServer.withRunning(configuration, handler: handler) { server in
            var idle: [RawHTTPClient] = []
            for _ in 0..<8 {
                let client = try await RawHTTPClient.connect(port: server.port)
                try await client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(RawHTTPResponses.parse(await client.readResponses(1)).map(\.status) == [204])
                idle.append(client)
            }
            let newcomer = try await RawHTTPClient.connect(port: server.port)
            try await newcomer.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = RawHTTPResponses.parse(await newcomer.readResponses(1))
            #expect(answer.map(\.status) == [204])
            #expect(answer.first?.header("Connection") != "close")
            #expect(await idle[0].isClosedByServer())
            try await idle[1].send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(RawHTTPResponses.parse(await idle[1].readResponses(1)).map(\.status) == [204])
            newcomer.close()
            idle.forEach { $0.close() }
        }
    }

    @Test func fullOfSlowHeads_AnswersHealthFromReserve_AndOthers503() async throws {
        let configuration = HTTPServer.Configuration(
            host: "127.0.0.1", port: 0, maxConnections: 2, reservedConnections: 1, eventLoopThreads: 1)
        try await HTTPServer.withRunning(configuration, handler: handler) { server in
            var slow: [RawHTTPClient] = []
            for _ in 0..<2 {
                let client = try await RawHTTPClient.connect(port: server.port)
                try await client.send("GET / HTTP/1.1\r\nHost: x\r\n")
                slow.append(client)
            }
            let probe = try await RawHTTPClient.connect(port: server.port)
            try await probe.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let health = RawHTTPResponses.parse(await probe.readToEnd())
            #expect(health.map(\.status) == [200])
            #expect(health.first?.header("Connection") == "close")
            probe.close()
            #expect(await server.waitUntilNoOpenConnections(butFor: 2))
            let other = try await RawHTTPClient.connect(port: server.port)
            try await other.send("GET /anything HTTP/1.1\r\nHost: x\r\n\r\n")
            let refused = RawHTTPResponses.parse(await other.readToEnd())
            #expect(refused.map(\.status) == [503])
            #expect(refused.first?.body.contains("server_full") == true)
            other.close()
            slow.forEach { $0.close() }
        }
    }

    @Test func fullReserve_MakesRoomForHealthCheck_ByClosingSilentReserveConnection() async throws {
        let configuration = HTTPServer.Configuration(
            host: "127.0.0.1", port: 0, maxConnections: 1, reservedConnections: 1, eventLoopThreads: 1)
        try await HTTPServer.withRunning(configuration, handler: handler) { server in
            let slow = try await RawHTTPClient.connect(port: server.port)
            try await slow.send("GET / HTTP/1.1\r\nHost: x\r\n")
            let silent = try await RawHTTPClient.connect(port: server.port)
            #expect(await server.waitUntilOpenConnections(2))
            let probe = try await RawHTTPClient.connect(port: server.port)
            try await probe.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(RawHTTPResponses.parse(await probe.readToEnd()).map(\.status) == [200])
            #expect(await silent.isClosedByServer())
            [slow, silent, probe].forEach { $0.close() }
        }
    }

    @Test func tricklingBody_IsClosed_ByRequestDeadline() async throws {
        let timeouts = HTTPServer.Configuration.Timeouts(
            headerRead: .seconds(30), bodyRead: .seconds(30), request: .milliseconds(300))
        let configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, timeouts: timeouts)
        try await HTTPServer.withRunning(configuration, handler: handler) { server in
            let client = try await RawHTTPClient.connect(port: server.port)
            try await client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
            var closed = false
            for _ in 0..<200 where !closed {
                do {
                    try await client.send("a")
                    try await Task.sleep(for: .milliseconds(50))
                } catch is SocketError {
                    closed = true
                }
            }
            #expect(closed)
            #expect(await server.waitUntilNoOpenConnections())
            client.close()
        }
    }
}
