@_spi(Testing) import HTTP1

/// The connection target: the input's first three bytes choose how the handler answers, how the
/// client ends and where the rest is cut into reads; the rest is what the client sends. The
/// answers must be the ones a plain parser run over the whole input predicts, in order, the server
/// must close exactly when it should, and a new connection must be answered afterwards.
enum ConnectionChecks {
    private static let harnesses = HTTPConnectionHarness.EchoHandler.Answering.allCases.map { answering in
        var configuration = HTTPServer.Configuration()
        configuration.limits.parser = FuzzChecks.limits
        configuration.limits.maxBufferedBytes = 1_024
        guard
            let harness = try? HTTPConnectionHarness(
                handler: HTTPConnectionHarness.EchoHandler(answering: answering), configuration: configuration,
                readTimeout: .seconds(60))
        else { fatalError("cannot start the connection harness") }
        return harness
    }

    static func check(_ input: [UInt8]) {
        guard input.count > 3 else { return }
        let harness = harnesses[Int(input[0]) % harnesses.count]
        let ending = HTTPConnectionHarness.Ending.allCases[Int(input[0] / 3) % 2]
        let bytes = Array(input[3...])
        let cuts = Set([input[1], input[2]].map { Int($0) * bytes.count / 256 }).sorted()
        let parts = HTTPConnectionHarness.parts(of: bytes, cutAt: cuts)
        let expected = HTTPConnectionHarness.Expectation(for: bytes, limits: FuzzChecks.limits)
        guard
            let outcome = try? harness.run(
                parts, ending: ending, methods: expected.methods, expectsClose: expected.closes)
        else { fatalError("cannot open a connection") }
        if ending == .readAnswers {
            guard outcome.answers == expected.answers, !expected.closes || outcome.serverClosed,
                !expected.closes || outcome.trailingBytes == 0
            else { fatalError("connection answered \(outcome), expected \(expected.answers) closes: \(expected.closes)") }
        }
        let probe = Array("GET /probe HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        guard let after = try? harness.run([probe], ending: .readAnswers, methods: [.get], expectsClose: false),
            after.answers == [HTTPConnectionHarness.Answer(status: 200, body: "GET /probe")]
        else { fatalError("a new connection was not answered after \(expected.answers)") }
        guard harness.waitUntilAllClosed(timeout: .seconds(60)) else { fatalError("a connection stayed open after its client left") }
    }
}
