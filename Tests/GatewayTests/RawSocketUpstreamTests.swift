import Testing

/// The test upstream's own promises: waiting for requests that never come ends.
@Suite struct RawSocketUpstreamTests {
    @Test func requestsAtLeast_ReturnsWhatCame_WhenTheLimitPasses() async throws {
        let upstream = try RawSocketUpstream { _, _ in nil }
        defer { upstream.stop() }
        let received = await upstream.requests(atLeast: 1, limit: .milliseconds(50))
        #expect(received.isEmpty)
    }

    @Test func requestsAtLeast_Returns_WhenTheUpstreamStops() async throws {
        let upstream = try RawSocketUpstream { _, _ in nil }
        async let received = upstream.requests(atLeast: 1, limit: .seconds(600))
        try await Task.sleep(for: .milliseconds(20))
        upstream.stop()
        #expect(await received.isEmpty)
    }
}
