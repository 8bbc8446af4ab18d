import Foundation
import Glibc
import Sockets
import Testing

@testable import HTTP1

/// End to end: connection limits, graceful shutdown, and no descriptor leaks under abuse.
@Suite(.timeLimit(.minutes(1)))
struct HTTPServerLifecycleTests {
    /// `/fast` answers on the loop; `/gate` waits until `gate` yields; `/hang` waits (cancellably) forever.
    struct GatedHandler: HTTPHandler {
        let events: AsyncStream<String>.Continuation
        let gate: AsyncStream<Void>

        func respondImmediately(to request: inout HTTPRequest) -> HTTPResponse? {
            request.target == "/fast" ? HTTPResponse(status: 200, bytes: Array("fast".utf8)) : nil
        }

        func handle(_ request: HTTPRequest) async -> HTTPResponse {
            events.yield("started \(request.target)")
            if request.target == "/gate" {
                for await _ in gate { break }
                return HTTPResponse(status: 200, bytes: Array("done".utf8))
            }
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
            events.yield("cancelled \(request.target)")
            return HTTPResponse(status: 500)
        }
    }

    @Test func maxConnections_ClosesNewConnectionsAtOnce_WhenNoneIsIdleAndReserveIsFull() async throws {
        let handler = ClosureHTTPHandler { _ in
            HTTPResponse(status: 204)
        } handle: { _ in
            HTTPResponse(status: 500)
        }
        let configuration = HTTPServer.Configuration(
            host: "127.0.0.1", port: 0, maxConnections: 2, reservedConnections: 0)
        try await HTTPServer.withRunning(configuration, handler: handler) { server in
            var admitted: [RawHTTPClient] = []
            for _ in 0..<2 {
                let client = try await RawHTTPClient.connect(port: server.port)
                try await client.send("GET / HTTP/1.1\r\nHost: x\r\n")
                admitted.append(client)
            }
            let refused = try await RawHTTPClient.connect(port: server.port)
            #expect(await refused.isClosedByServer())
            #expect(server.slotCounts == HTTPServer.SlotCounts(refused: 1))
            refused.close()
            admitted.removeFirst().close()
            #expect(await server.waitUntilNoOpenConnections(butFor: 1))
            let later = try await RawHTTPClient.connect(port: server.port)
            try await later.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(RawHTTPResponses.parse(await later.readResponses(1)).map(\.status) == [204])
            later.close()
            admitted.forEach { $0.close() }
        }
    }

    @Test func shutdown_FinishesInFlightRequest_ClosesIdleOnes_AndStopsAccepting() async throws {
        let (events, recorder) = AsyncStream.makeStream(of: String.self)
        let (gate, opener) = AsyncStream.makeStream(of: Void.self)
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0), handler: GatedHandler(events: recorder, gate: gate))
        try await server.start()
        let port = server.port
        let idle = try await RawHTTPClient.connect(port: port)
        defer { idle.close() }
        try await idle.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(RawHTTPResponses.parse(await idle.readResponses(1)).map(\.status) == [200])
        let busy = try await RawHTTPClient.connect(port: port)
        try await busy.send("GET /gate HTTP/1.1\r\nHost: x\r\n\r\n")
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "started /gate")

        let shutdown = Task { await server.shutdown(gracePeriod: .seconds(30)) }
        #expect(await idle.isClosedByServer())
        await #expect(throws: SocketError.self) { _ = try await RawHTTPClient.connect(port: port) }
        opener.yield()
        let responses = RawHTTPResponses.parse(await busy.readToEnd())
        busy.close()
        #expect(responses.map(\.body) == ["done"])
        #expect(responses.first?.header("Connection") == "close")
        await shutdown.value
        #expect(server.openConnections == 0)
    }

    @Test func shutdown_ClosesAndCancelsUnfinishedRequest_WhenGracePeriodEnds() async throws {
        let (events, recorder) = AsyncStream.makeStream(of: String.self)
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0),
            handler: GatedHandler(events: recorder, gate: AsyncStream { _ in }))
        try await server.start()
        let client = try await RawHTTPClient.connect(port: server.port)
        defer { client.close() }
        try await client.send("GET /hang HTTP/1.1\r\nHost: x\r\n\r\n")
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "started /hang")
        await server.shutdown(gracePeriod: .milliseconds(50))
        #expect(await client.readToEnd() == "")
        #expect(await iterator.next() == "cancelled /hang")
    }

    @Test func run_ShutsDownAndFreesPort_WhenItsTaskIsCancelled() async throws {
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0),
            handler: ClosureHTTPHandler { _ in HTTPResponse(status: 204) })
        try await server.start()
        let port = server.port
        let running = Task { try await server.run(gracePeriod: .milliseconds(50)) }
        let client = try await RawHTTPClient.connect(port: port)
        try await client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(RawHTTPResponses.parse(await client.readResponses(1)).map(\.status) == [204])
        running.cancel()
        try await running.value
        #expect(await client.isClosedByServer())
        client.close()
        await #expect(throws: SocketError.self) { _ = try await RawHTTPClient.connect(port: port) }
    }

    @Test func abortedConnections_LeakNoDescriptor() async throws {
        let (_, recorder) = AsyncStream.makeStream(of: String.self)
        let handler = GatedHandler(events: recorder, gate: AsyncStream { _ in })
        try await HTTPServer.withRunning(handler: handler) { server in
            let before = try SocketDescriptors.count(port: server.port)
            #expect(before == 1, "the listening socket")
            let partial = "GET /fast HTTP/1.1\r\nHost: x\r\nX-Half: "
            let requests = [
                partial, "GET /hang HTTP/1.1\r\nHost: x\r\n\r\n",
                "POST /fast HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab",
            ]
            for batch in 0..<20 {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<50 {
                        group.addTask {
                            let client = try await RawHTTPClient.connect(port: server.port)
                            try await client.send(requests[(batch * 50 + index) % requests.count])
                            client.abort()
                        }
                    }
                    try await group.waitForAll()
                }
            }
            #expect(
                try await Self.waitUntilAllClosed(server, descriptors: before), "still open: \(server.openConnections)")
            #expect(try SocketDescriptors.pendingAccepts(port: server.port) == 0)
            #expect(try SocketDescriptors.count(port: server.port) == before)
            #expect(server.openConnections == 0)
        }
        recorder.finish()
    }

    /// Polls (every 5 ms, at most 10 s) until every connection made to `server` was accepted and
    /// closed; `false` if one stays. The checks run in the order a connection passes them: none
    /// waits in the listener's queue (no client connects any more, so none can enter it again),
    /// then no descriptor is left but the `descriptors` of before (an accepted one has a descriptor
    /// from `accept` on, until it is closed), then none is counted open (counted in before it is
    /// closed, out after). Open connections alone read zero while the queue still holds some.
    private static func waitUntilAllClosed(_ server: HTTPServer, descriptors: Int) async throws -> Bool {
        for _ in 0..<2_000 {
            if try SocketDescriptors.pendingAccepts(port: server.port) == 0,
                try SocketDescriptors.count(port: server.port) == descriptors, server.openConnections == 0
            {
                return true
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return false
    }
}
