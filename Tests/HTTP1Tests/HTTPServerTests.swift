import Foundation
import Glibc
import Sockets
import Testing

@testable import HTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// End to end over real sockets on port 0: binding, addresses, URLSession as a client.
@Suite(.timeLimit(.minutes(1)))
struct HTTPServerTests {
    static let echo = ClosureHTTPHandler { request in
        request.target.hasPrefix("/fast") ? echoResponse(request) : nil
    } handle: { request in
        echoResponse(request)
    }

    static func echoResponse(_ request: HTTPRequest) -> HTTPResponse {
        let text = "\(request.method) \(request.target) from \(request.remoteAddress ?? "?"): "
        return HTTPResponse(
            status: 200, headers: ["Content-Type": "text/plain"], bytes: Array(text.utf8) + request.body)
    }

    @Test func start_BindsKernelChosenPort_WhenPortIsZero() async throws {
        try await HTTPServer.withRunning(handler: Self.echo) { server in
            #expect(server.port > 0)
            let client = try await RawHTTPClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("GET /fast/hello HTTP/1.1\r\nHost: x\r\n\r\nGET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            let responses = RawHTTPResponses.parse(await client.readResponses(2))
            #expect(responses.map(\.body) == ["GET /fast/hello from 127.0.0.1: ", "GET /slow from 127.0.0.1: "])
        }
    }

    @Test func start_ServesIPv6Loopback() async throws {
        try await HTTPServer.withRunning(.init(host: "::1", port: 0), handler: Self.echo) { server in
            let client = try await RawHTTPClient.connect(host: "::1", port: server.port)
            defer { client.close() }
            try await client.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(RawHTTPResponses.parse(await client.readResponses(1)).map(\.body) == ["GET /fast from ::1: "])
        }
    }

    @Test func start_ThrowsAddressInUse_WhenPortIsTaken() async throws {
        try await HTTPServer.withRunning(handler: Self.echo) { server in
            let second = HTTPServer(configuration: .init(host: "127.0.0.1", port: server.port), handler: Self.echo)
            let error = try #require(await #expect(throws: SocketError.self) { try await second.start() })
            #expect(error.code == EADDRINUSE)
            #expect(error.description.contains("Address already in use"))
            #expect(error.description.contains("127.0.0.1:\(server.port)"))
        }
    }

    @Test func start_ThrowsClearError_WhenHostDoesNotResolve() async throws {
        let server = HTTPServer(configuration: .init(host: "no such host", port: 0), handler: Self.echo)
        let error = try #require(await #expect(throws: SocketError.self) { try await server.start() })
        #expect(error.operation == "resolve(no such host)")
    }

    @Test func urlSession_GetsAndPosts_OverKeepAlive() async throws {
        try await HTTPServer.withRunning(handler: Self.echo) { server in
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }
            let base = "http://127.0.0.1:\(server.port)"
            let (getBody, getResponse) = try await session.data(from: try #require(URL(string: "\(base)/fast/a")))
            #expect((getResponse as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: getBody, as: UTF8.self) == "GET /fast/a from 127.0.0.1: ")
            var post = URLRequest(url: try #require(URL(string: "\(base)/slow/b")))
            post.httpMethod = "POST"
            post.httpBody = Data("payload".utf8)
            let (postBody, postResponse) = try await session.data(for: post)
            #expect((postResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Server") == "rds-gateway")
            #expect(String(decoding: postBody, as: UTF8.self) == "POST /slow/b from 127.0.0.1: payload")
        }
    }

    @Test func sseStream_EndsOnServer_WhenClientDisconnects() async throws {
        let (terminations, terminated) = AsyncStream.makeStream(of: Void.self)
        let handler = ClosureHTTPHandler { _ in
            let (stream, producer) = AsyncStream.makeStream(of: [UInt8].self)
            producer.onTermination = { _ in terminated.yield() }
            producer.yield(Array("event: loaded\ndata: {}\n\n".utf8))
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: .stream(stream))
        }
        try await HTTPServer.withRunning(handler: handler) { server in
            let client = try await RawHTTPClient.connect(port: server.port)
            try await client.send("GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
            let received = await client.read(until: { String(decoding: $0, as: UTF8.self).contains("data: {}") })
            #expect(String(decoding: received, as: UTF8.self).contains("Content-Type: text/event-stream"))
            client.abort()
            var iterator = terminations.makeAsyncIterator()
            #expect(await iterator.next() != nil)
            #expect(await server.waitUntilNoOpenConnections())
        }
    }
}
