import Dispatch
import Glibc
import Sockets
import Synchronization
import Testing

@testable import HTTP1

/// The client against real servers on port 0: our `HTTPServer`, and a scripted raw upstream for
/// what a good server never does.
struct HTTPClientTests {
    static let ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"

    static func body(_ response: HTTPResponse) -> String {
        guard case .bytes(let bytes) = response.body else { return "<stream>" }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func clientError(_ work: () async throws -> Void) async -> HTTPClientError? {
        do {
            try await work()
            return nil
        } catch let error as HTTPClientError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    /// Polls `condition` every 2 ms, for at most 5 s.
    static func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<2_500 where !condition() { try await Task.sleep(for: .milliseconds(2)) }
        try #require(condition())
    }

    static let echo = ClosureHTTPHandler { request in
        HTTPResponse(
            status: 200, headers: ["X-Method": request.method.rawValue, "X-Target": request.target],
            bytes: request.body.isEmpty ? Array("hello".utf8) : request.body)
    }

    @Test func send_ReturnsResponse_AndReusesConnection_WithHTTPServer() async throws {
        try await HTTPServer.withRunning(handler: Self.echo) { server in
            let client = HTTPClient()
            let first = try await client.send(
                HTTPRequest(method: .get, target: "/a?b=1"), to: "127.0.0.1", port: server.port)
            #expect(first.status == 200)
            #expect(first.headers["x-target"] == "/a?b=1")
            #expect(Self.body(first) == "hello")
            #expect(client.idleConnectionCount(host: "127.0.0.1", port: server.port) == 1)
            let post = HTTPRequest(method: .post, target: "/n", body: Array("{\"x\":1}".utf8))
            let second = try await client.send(post, to: "127.0.0.1", port: server.port)
            #expect(Self.body(second) == "{\"x\":1}")
            #expect(server.openConnections == 1)
            #expect(client.idleConnectionCount(host: "127.0.0.1", port: server.port) == 1)
            client.closeIdleConnections()
            #expect(await server.waitUntilNoOpenConnections())
        }
    }

    @Test func send_ReadsLargeChunkedBody_AcrossManyReads() async throws {
        let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let streaming = ClosureHTTPHandler { _ in
            let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
            for start in stride(from: 0, to: payload.count, by: 50_000) {
                continuation.yield(Array(payload[start..<min(start + 50_000, payload.count)]))
            }
            continuation.finish()
            return HTTPResponse(status: 200, body: .stream(stream))
        }
        try await HTTPServer.withRunning(handler: streaming) { server in
            let response = try await HTTPClient().send(
                HTTPRequest(method: .get, target: "/big"), to: "127.0.0.1", port: server.port)
            #expect(response.headers["transfer-encoding"] == "chunked")
            guard case .bytes(let body) = response.body else {
                Issue.record("expected a .bytes body")
                return
            }
            #expect(body == payload)
        }
    }

    @Test func send_ThrowsMalformedResponse_WhenBodyPassesLimit() async throws {
        let upstream = try ScriptedUpstream { _, _ in
            .respond("HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "x", count: 2_000), thenClose: true)
        }
        defer { upstream.stop() }
        let client = HTTPClient(configuration: HTTPClient.Configuration(limits: HTTPParserLimits(maxBodyBytes: 1_000)))
        let error = await Self.clientError {
            _ = try await client.send(HTTPRequest(method: .get, target: "/"), to: "127.0.0.1", port: upstream.port)
        }
        #expect(error?.kind == .malformedResponse)
        #expect((error?.underlying as? HTTPParseError)?.code == .bodyTooLarge)
    }

    @Test func send_ReachesIPv6Upstream_WithBracketedHost() async throws {
        let handler = ClosureHTTPHandler { request in
            HTTPResponse(status: 200, bytes: Array((request.headers["host"] ?? "").utf8))
        }
        try await HTTPServer.withRunning(HTTPServer.Configuration(host: "::1", port: 0), handler: handler) { server in
            let response = try await HTTPClient().send(
                HTTPRequest(method: .get, target: "/"), to: "::1", port: server.port)
            #expect(Self.body(response) == "[::1]:\(server.port)")
        }
    }

    @Test func send_ReturnsNoBody_ForHead() async throws {
        try await HTTPServer.withRunning(handler: Self.echo) { server in
            let client = HTTPClient()
            let head = try await client.send(
                HTTPRequest(method: .head, target: "/"), to: "127.0.0.1", port: server.port)
            #expect(head.headers["content-length"] == "5")
            #expect(Self.body(head).isEmpty)
            let get = try await client.send(HTTPRequest(method: .get, target: "/"), to: "127.0.0.1", port: server.port)
            #expect(Self.body(get) == "hello")
        }
    }

    /// An interim answer and the final one, read at once: the final one is parsed from what is
    /// left after the interim one, read until the close, or by its length, when the connection
    /// is kept for the next call.
    @Test(arguments: [
        ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nto the end", true, 0),
        ("HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nto the end", false, 1),
    ])
    func send_SkipsInterimResponse_AndReadsTheFinalOne(_ answer: String, closes: Bool, pooled: Int) async throws {
        let upstream = try ScriptedUpstream { _, _ in .respond(answer, thenClose: closes) }
        defer { upstream.stop() }
        let client = HTTPClient()
        let response = try await client.send(
            HTTPRequest(method: .get, target: "/x"), to: "127.0.0.1", port: upstream.port)
        #expect(response.status == 200)
        #expect(Self.body(response) == "to the end")
        #expect(client.idleConnectionCount(host: "127.0.0.1", port: upstream.port) == pooled)
    }

    @Test func send_DoesNotPool_WhenResponseSaysClose() async throws {
        let upstream = try ScriptedUpstream { _, _ in
            .respond("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")
        }
        defer { upstream.stop() }
        let client = HTTPClient()
        _ = try await client.send(HTTPRequest(method: .get, target: "/"), to: "127.0.0.1", port: upstream.port)
        _ = try await client.send(HTTPRequest(method: .get, target: "/"), to: "127.0.0.1", port: upstream.port)
        #expect(client.idleConnectionCount(host: "127.0.0.1", port: upstream.port) == 0)
        #expect(upstream.acceptedConnections == 2)
    }

    /// The second request meets a pooled connection the upstream closes as it arrives: GET is
    /// retried once on a new connection, POST is not (it may have had an effect).
    @Test(arguments: [HTTPMethod.get, .post])
    func send_RetriesOnlyIdempotent_WhenPooledConnectionIsClosedUnderIt(_ method: HTTPMethod) async throws {
        let upstream = try ScriptedUpstream { connection, request in
            connection == 0 && request == 1 ? .closeWithoutAnswer : .respond(Self.ok)
        }
        defer { upstream.stop() }
        let client = HTTPClient()
        _ = try await client.send(HTTPRequest(method: .get, target: "/1"), to: "127.0.0.1", port: upstream.port)
        let error = await Self.clientError {
            let retried = try await client.send(
                HTTPRequest(method: method, target: "/2"), to: "127.0.0.1", port: upstream.port)
            #expect(Self.body(retried) == "ok")
        }
        if method == .get {
            #expect(error == nil)
            #expect(upstream.requestLines == ["GET /1", "GET /2", "GET /2"])
        } else {
            #expect(error?.kind == .connectionClosed)
            #expect(upstream.requestLines == ["GET /1", "POST /2"])
        }
        #expect(upstream.acceptedConnections == (method == .get ? 2 : 1))
    }

    @Test func send_DropsPooledConnection_WhenPeerClosedItWhileIdle() async throws {
        let upstream = try ScriptedUpstream { _, _ in .respond(Self.ok, thenClose: true) }
        defer { upstream.stop() }
        let client = HTTPClient()
        _ = try await client.send(HTTPRequest(method: .post, target: "/1"), to: "127.0.0.1", port: upstream.port)
        try await Self.waitUntil { upstream.closedConnections == 1 }
        let second = try await client.send(
            HTTPRequest(method: .post, target: "/2"), to: "127.0.0.1", port: upstream.port)
        #expect(Self.body(second) == "ok")
        #expect(upstream.acceptedConnections == 2)
    }

    @Test func send_ThrowsMalformedResponse_ForInvalidStatusLine() async throws {
        let upstream = try ScriptedUpstream { _, _ in .respond("HTTP/1.1 2xx OK\r\n\r\n") }
        defer { upstream.stop() }
        let error = await Self.clientError {
            _ = try await HTTPClient().send(
                HTTPRequest(method: .get, target: "/"), to: "127.0.0.1", port: upstream.port)
        }
        #expect(error?.kind == .malformedResponse)
        #expect(error?.underlying is HTTPParseError)
    }

    @Test func send_ThrowsConnectionClosed_WhenBodyIsCutShort() async throws {
        let upstream = try ScriptedUpstream { _, _ in
            .respond("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", thenClose: true)
        }
        defer { upstream.stop() }
        let error = await Self.clientError {
            _ = try await HTTPClient().send(
                HTTPRequest(method: .get, target: "/"), to: "127.0.0.1", port: upstream.port)
        }
        #expect(error?.kind == .connectionClosed)
    }

    @Test func send_ThrowsConnectRefused_WhenNothingListens() async throws {
        let closed = try Socket.refusingPort()
        defer { closed.close() }
        let port = try closed.localAddress().port
        let error = await Self.clientError {
            _ = try await HTTPClient().send(HTTPRequest(method: .get, target: "/"), to: "127.0.0.1", port: port)
        }
        #expect(error?.kind == .connectRefused)
        #expect(error?.message.contains("127.0.0.1:\(port)") == true)
    }

    /// A listener that never accepts, its backlog filled: the kernel drops further SYNs, so a
    /// connect neither succeeds nor fails.
    @Test func send_ThrowsConnectTimeout_WhenHandshakeNeverCompletes() async throws {
        let listener = try Socket.listen(on: SocketAddress(host: "127.0.0.1", port: 0), backlog: 0)
        defer { listener.close() }
        let port = try listener.localAddress().port
        var fillers: [Socket] = []
        defer { fillers.forEach { $0.close() } }
        for _ in 0..<4 {
            fillers.append(try Socket.connect(to: SocketAddress(host: "127.0.0.1", port: port)).socket)
        }
        let timeouts = HTTPClient.Timeouts(connect: .milliseconds(100))
        let error = await Self.clientError {
            _ = try await HTTPClient().send(
                HTTPRequest(method: .get, target: "/"), to: "127.0.0.1", port: port, timeouts: timeouts)
        }
        #expect(error?.kind == .timeout(.connect))
    }

    @Test func send_ThrowsFirstByteTimeout_WhenUpstreamIsSilent() async throws {
        let upstream = try ScriptedUpstream { _, _ in .hang }
        defer { upstream.stop() }
        let timeouts = HTTPClient.Timeouts(firstByte: .milliseconds(100))
        let error = await Self.clientError {
            _ = try await HTTPClient().send(
                HTTPRequest(method: .get, target: "/"), to: "127.0.0.1", port: upstream.port, timeouts: timeouts)
        }
        #expect(error?.kind == .timeout(.firstByte))
    }

    @Test func send_ThrowsTotalTimeout_WhenBodyStalls() async throws {
        let upstream = try ScriptedUpstream { _, request in
            request == 0 ? .respond("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nsome") : .hang
        }
        defer { upstream.stop() }
        let timeouts = HTTPClient.Timeouts(firstByte: .seconds(5), total: .milliseconds(150))
        let error = await Self.clientError {
            _ = try await HTTPClient().send(
                HTTPRequest(method: .get, target: "/"), to: "127.0.0.1", port: upstream.port, timeouts: timeouts)
        }
        #expect(error?.kind == .timeout(.total))
    }

    @Test func send_ThrowsCancellation_AndClosesConnection_WhenTaskCancelled() async throws {
        let upstream = try ScriptedUpstream { _, _ in .hang }
        defer { upstream.stop() }
        let client = HTTPClient()
        let task = Task {
            try await client.send(HTTPRequest(method: .get, target: "/"), to: "127.0.0.1", port: upstream.port)
        }
        try await Self.waitUntil { !upstream.requestLines.isEmpty }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(client.idleConnectionCount(host: "127.0.0.1", port: upstream.port) == 0)
    }

    @Test func pool_KeepsAtMostConfiguredIdleConnections() async throws {
        let upstream = try ScriptedUpstream { _, _ in .respond(Self.ok) }
        defer { upstream.stop() }
        let client = HTTPClient(configuration: HTTPClient.Configuration(maxIdleConnectionsPerHost: 2))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<6 {
                group.addTask {
                    _ = try await client.send(
                        HTTPRequest(method: .get, target: "/\(index)"), to: "127.0.0.1", port: upstream.port)
                }
            }
            try await group.waitForAll()
        }
        #expect(client.idleConnectionCount(host: "127.0.0.1", port: upstream.port) <= 2)
        #expect(upstream.requestLines.count == 6)
    }

    /// Twenty calls under way at once (the upstream holds every first answer until all twenty
    /// have arrived) leave twenty idle connections, and the next twenty calls reuse them: with the
    /// old default of 8, twelve were closed and every later burst connected anew.
    @Test func pool_KeepsTheConnectionsOfABusyMoment_ByDefault() async throws {
        let concurrent = 20
        let arrived = Mutex(0)
        let allArrived = DispatchSemaphore(value: 0)
        let upstream = try ScriptedUpstream { _, request in
            if request == 0 {
                if arrived.withLock({ $0 += 1; return $0 == concurrent }) {
                    for _ in 0..<concurrent { allArrived.signal() }
                }
                _ = allArrived.wait(timeout: .now() + 5)
            }
            return .respond(Self.ok)
        }
        defer { upstream.stop() }
        let client = HTTPClient()
        for _ in 0..<2 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<concurrent {
                    group.addTask {
                        _ = try await client.send(
                            HTTPRequest(method: .get, target: "/\(index)"), to: "127.0.0.1", port: upstream.port)
                    }
                }
                try await group.waitForAll()
            }
            #expect(client.idleConnectionCount(host: "127.0.0.1", port: upstream.port) == concurrent)
        }
        #expect(upstream.acceptedConnections == concurrent)
        #expect(upstream.requestLines.count == 2 * concurrent)
    }

    /// Idle connections are pooled per loop: a caller on one loop never takes another loop's
    /// (its I/O would run on that loop's thread); it opens its own, and each loop reuses its own.
    @Test func pool_KeepsEachLoopsConnections_ForThatLoop() async throws {
        let upstream = try ScriptedUpstream { _, _ in .respond(Self.ok) }
        defer { upstream.stop() }
        let loops = try (0..<2).map { _ in try EventLoop(checkInterval: .seconds(1)) }
        for loop in loops { try loop.start() }
        defer { for loop in loops { loop.stop() } }
        let client = HTTPClient()
        func send(on loop: EventLoop) async throws -> Bool {
            try await Task(executorPreference: loop) {
                let response = try await client.send(
                    HTTPRequest(method: .get, target: "/a"), to: "127.0.0.1", port: upstream.port)
                return response.status == 200
            }.value
        }
        #expect(try await send(on: loops[0]))
        #expect(try await send(on: loops[1]))
        #expect(upstream.acceptedConnections == 2)
        #expect(client.idleConnectionCount(host: "127.0.0.1", port: upstream.port) == 2)
        #expect(try await send(on: loops[1]))
        #expect(try await send(on: loops[0]))
        #expect(upstream.acceptedConnections == 2)
    }

    /// A caller running on an event loop (a server's handler) has its exchange done on that loop,
    /// and is resumed there; only callers outside every loop start the client's own loop.
    @Test func send_FromATaskOnAnEventLoop_UsesThatLoop() async throws {
        let upstream = try ScriptedUpstream { _, _ in .respond(Self.ok) }
        defer { upstream.stop() }
        let loop = try EventLoop(checkInterval: .seconds(1))
        try loop.start()
        defer { loop.stop() }
        let client = HTTPClient()
        let onLoop = try await Task(executorPreference: loop) {
            let response = try await client.send(
                HTTPRequest(method: .get, target: "/a"), to: "127.0.0.1", port: upstream.port)
            return response.status == 200 && loop.isInLoopThread
        }.value
        #expect(onLoop)
        #expect(client.ownLoopCount == 0)
        let elsewhere = HTTPClient()
        let outside = try await elsewhere.send(
            HTTPRequest(method: .get, target: "/b"), to: "127.0.0.1", port: upstream.port)
        #expect(outside.status == 200)
        #expect(elsewhere.ownLoopCount == 1)
    }
}
