import Sockets
import Testing

@testable import HTTP1

/// End to end over real sockets: a full server makes room for new clients, keeps answering its
/// reserved paths, and a trickling request cannot hold its slot past the request deadline.
@Suite(.timeLimit(.minutes(1)))
struct HTTPServerSlotTests {
    /// Counts requests that reached `/hang`, which never answers (its connection stays mid-request).
    let arrivals = AsyncStream.makeStream(of: Void.self)

    /// `/stream` answers a stream that sends `hello` and never ends; `/hang` never answers;
    /// `/health` 200, others 204.
    var handler: ClosureHTTPHandler {
        let arrived = arrivals.continuation
        return ClosureHTTPHandler { request in
            request.path == "/stream" || request.path == "/hang"
                ? nil : HTTPResponse(status: request.path == "/health" ? 200 : 204)
        } handle: { request in
            guard request.path == "/hang" else {
                return HTTPResponse(status: 200, body: .stream(AsyncStream { $0.yield(Array("hello".utf8)) }))
            }
            arrived.yield()
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
            return HTTPResponse(status: 500)
        }
    }

    /// Opens `count` connections whose request reaches the handler and is never answered.
    func hang(_ count: Int, on server: HTTPServer) async throws -> [RawHTTPClient] {
        let clients = try await connect(count, to: server, sending: "GET /hang HTTP/1.1\r\nHost: x\r\n\r\n")
        var iterator = arrivals.stream.makeAsyncIterator()
        for _ in 0..<count { await iterator.next() }
        return clients
    }

    /// One event loop (so "the longest-idle connection of its loop" is the longest-idle of all).
    func configuration(maxConnections: Int, reserve: Int) -> HTTPServer.Configuration {
        HTTPServer.Configuration(
            host: "127.0.0.1", port: 0, maxConnections: maxConnections, reservedConnections: reserve,
            eventLoopThreads: 1)
    }

    /// Opens `count` connections one after the other, each sending `bytes`; with `answered`,
    /// each waits for its answer (then sits idle, kept alive).
    func connect(_ count: Int, to server: HTTPServer, sending bytes: String, answered: Bool = false) async throws
        -> [RawHTTPClient]
    {
        var clients: [RawHTTPClient] = []
        for _ in 0..<count {
            let client = try await RawHTTPClient.connect(port: server.port)
            try await client.send(bytes)
            if answered { #expect(RawHTTPResponses.parse(await client.readResponses(1)).map(\.status) == [204]) }
            clients.append(client)
        }
        return clients
    }

    /// Sends `GET path` on a new connection and reads its answer.
    func fetchOnce(_ path: String, from server: HTTPServer) async throws -> [RawHTTPResponses.Response] {
        let client = try await RawHTTPClient.connect(port: server.port)
        defer { client.close() }
        try await client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
        return RawHTTPResponses.parse(await client.readResponses(1))
    }

    @Test func full_ClosesLongestIdleConnection_AndServesNewClient() async throws {
        try await HTTPServer.withRunning(configuration(maxConnections: 8, reserve: 2), handler: handler) { server in
            let idle = try await connect(8, to: server, sending: "GET / HTTP/1.1\r\nHost: x\r\n\r\n", answered: true)
            let newcomer = try await RawHTTPClient.connect(port: server.port)
            try await newcomer.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = RawHTTPResponses.parse(await newcomer.readResponses(1))
            #expect(answer.map(\.status) == [204])
            #expect(answer.first?.header("Connection") != "close")
            #expect(await idle[0].isClosedByServer())
            #expect(server.slotCounts == HTTPServer.SlotCounts(madeRoom: 1))
            try await idle[1].send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(RawHTTPResponses.parse(await idle[1].readResponses(1)).map(\.status) == [204])
            newcomer.close()
            for client in idle { client.close() }
        }
    }

    @Test func full_ClosesIdleConnectionBeforeStream_AndStreamOnlyWhenNoneIsIdle() async throws {
        try await HTTPServer.withRunning(configuration(maxConnections: 2, reserve: 1), handler: handler) { server in
            let stream = try await connect(1, to: server, sending: "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = await stream[0].read { String(decoding: $0, as: UTF8.self).contains("hello") }
            let idle = try await connect(1, to: server, sending: "GET / HTTP/1.1\r\nHost: x\r\n\r\n", answered: true)
            let busy = try await hang(1, on: server)
            #expect(await idle[0].isClosedByServer())
            #expect(try await fetchOnce("/health", from: server).map(\.status) == [200])
            #expect(await stream[0].isClosedByServer())
            for client in stream + idle + busy { client.close() }
        }
    }

    @Test func fullOfBusyConnections_AnswersHealthFromReserve_AndOthers503() async throws {
        try await HTTPServer.withRunning(configuration(maxConnections: 2, reserve: 1), handler: handler) { server in
            let busy = try await hang(2, on: server)
            let health = try await fetchOnce("/health", from: server)
            #expect(health.map(\.status) == [200])
            #expect(health.first?.header("Connection") == "close")
            #expect(await server.waitUntilNoOpenConnections(butFor: 2))
            let refused = try await fetchOnce("/anything", from: server)
            #expect(refused.map(\.status) == [503])
            #expect(refused.first?.body.contains("server_full") == true)
            #expect(server.slotCounts == HTTPServer.SlotCounts(servedFromReserve: 2))
            for client in busy { client.close() }
        }
    }

    @Test func fullReserve_MakesRoomForHealthCheck_ByClosingSilentReserveConnection() async throws {
        try await HTTPServer.withRunning(configuration(maxConnections: 1, reserve: 1), handler: handler) { server in
            let busy = try await hang(1, on: server)
            let silent = try await RawHTTPClient.connect(port: server.port)
            #expect(await server.waitUntilOpenConnections(2))
            #expect(try await fetchOnce("/health", from: server).map(\.status) == [200])
            #expect(await silent.isClosedByServer())
            for client in busy + [silent] { client.close() }
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
