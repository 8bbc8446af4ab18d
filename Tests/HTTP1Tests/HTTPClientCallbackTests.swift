import Sockets
import Testing

@testable import HTTP1

/// The client's callback form (`send(_:to:timeouts:on:completion:)`), driven from a loop's thread.
struct HTTPClientCallbackTests {
    /// Starts a callback call on `loop` and waits for its completion (which must come on the loop).
    private static func call(
        _ client: HTTPClient, port: Int, on loop: EventLoop, cancelAtOnce: Bool = false
    ) async -> (result: Result<HTTPResponse, any Error>, onLoop: Bool) {
        await withCheckedContinuation { continuation in
            loop.execute {
                let destination = client.destination(host: "127.0.0.1", port: port)
                let call = client.send(HTTPRequest(method: .get, target: "/"), to: destination, on: loop) { result in
                    continuation.resume(returning: (result, loop.isInLoopThread))
                }
                if cancelAtOnce { call.cancel() }
            }
        }
    }

    @Test func callbackSend_AnswersOnTheLoop_AndPoolsTheConnection() async throws {
        let upstream = try ScriptedUpstream { _, _ in .respond("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok") }
        defer { upstream.stop() }
        let loop = try EventLoop(checkInterval: .seconds(1))
        try loop.start()
        defer { loop.stop() }
        let client = HTTPClient()
        for _ in 0..<2 {
            let (result, onLoop) = await Self.call(client, port: upstream.port, on: loop)
            let response = try result.get()
            #expect(response.status == 200 && HTTPClientTests.body(response) == "ok" && onLoop)
        }
        #expect(upstream.acceptedConnections == 1)
    }

    @Test func callbackSend_EndsWithCancellation_WhenCancelled() async throws {
        let upstream = try ScriptedUpstream { _, _ in .hang }
        defer { upstream.stop() }
        let loop = try EventLoop(checkInterval: .seconds(1))
        try loop.start()
        defer { loop.stop() }
        let (result, onLoop) = await Self.call(HTTPClient(), port: upstream.port, on: loop, cancelAtOnce: true)
        #expect(onLoop)
        #expect(throws: CancellationError.self) { try result.get() }
    }
}
