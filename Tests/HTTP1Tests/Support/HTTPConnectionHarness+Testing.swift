import Dispatch

@_spi(Testing) @testable import HTTP1

extension HTTPConnectionHarness {
    /// Small parser limits, so every limit is reached by a short input.
    static let smallLimits = HTTPParserLimits(
        maxRequestLineBytes: 200, maxHeaderSectionBytes: 1_000, maxHeaderCount: 12, maxBodyBytes: 2_000)

    /// A harness answering with `EchoHandler(answering:)`, parsing with `limits`.
    static func make(
        answering: EchoHandler.Answering, limits: HTTPParserLimits = smallLimits, maxBufferedBytes: Int = 64 * 1_024
    ) throws -> HTTPConnectionHarness {
        var configuration = HTTPServer.Configuration()
        configuration.limits.parser = limits
        configuration.limits.maxBufferedBytes = maxBufferedBytes
        return try HTTPConnectionHarness(handler: EchoHandler(answering: answering), configuration: configuration)
    }

    /// Sends `parts` as separate reads and reads the answers `Expectation` predicts for their
    /// concatenation, off the cooperative pool (the harness blocks; handler tasks need the pool).
    func exchange(_ parts: [[UInt8]], limits: HTTPParserLimits = smallLimits) async throws
        -> (Outcome, Expectation)
    {
        let expected = Expectation(for: parts.flatMap { $0 }, limits: limits)
        let outcome = try await offload {
            try self.run(parts, ending: .readAnswers, methods: expected.methods, expectsClose: expected.closes)
        }
        return (outcome, expected)
    }

    /// Whether a new connection is answered (the loop and the process survived).
    func answersNewConnection() async throws -> Bool {
        let probe = Array("GET /probe HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        let outcome = try await offload {
            try self.run([probe], ending: .readAnswers, methods: [.get], expectsClose: false)
        }
        return outcome.answers == [Answer(status: 200, body: "GET /probe")]
    }

    /// Runs blocking `work` on a thread of its own.
    func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "connection-harness").async { continuation.resume(with: Result { try work() }) }
        }
    }
}
