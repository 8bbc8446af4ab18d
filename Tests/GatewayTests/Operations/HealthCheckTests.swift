import Foundation
import Testing

@testable import Gateway

struct HealthCheckTests {
    static let gatewayHealth = #"{"status":"ok","service":"rds-gateway","version":"0.1.0"}"#

    static func answering200(_ body: String) -> String {
        "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    @Test func answer_ReturnsTheCode_FromARealListener() throws {
        let listener = try CannedHTTPListener(answer: "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
        defer { listener.stop() }
        #expect(try HealthCheck(port: listener.port).answer().status == 503)
    }

    @Test func runCommand_ExitsZero_WhenTheGatewaysHealthAnswers200() throws {
        let listener = try CannedHTTPListener(answer: Self.answering200(Self.gatewayHealth))
        defer { listener.stop() }
        let options = try CommandLineOptions(arguments: ["healthcheck", "--port", String(listener.port)])
        #expect(HealthCheck.runCommand(options: options, environment: [:]) == 0)
        let plain = try CommandLineOptions(arguments: ["healthcheck"])
        #expect(HealthCheck.runCommand(options: plain, environment: ["RDS_PORT": String(listener.port)]) == 0)
    }

    @Test(arguments: [#"{"status":"ok"}"#, "OK", #"{"status":"ok","service":"other"}"#, ""])
    func runCommand_ExitsOne_WhenAForeignServerAnswers200(body: String) throws {
        let listener = try CannedHTTPListener(answer: Self.answering200(body))
        defer { listener.stop() }
        let options = try CommandLineOptions(arguments: ["healthcheck", "--port", String(listener.port)])
        #expect(HealthCheck.runCommand(options: options, environment: [:]) == 1)
    }

    @Test func runCommand_ExitsOne_WhenNothingListens() throws {
        let closed = try RefusingPort()
        defer { withExtendedLifetime(closed) {} }
        let port = closed.port
        #expect(throws: HealthCheckError.self) { try HealthCheck(port: port).answer() }
        let options = try CommandLineOptions(arguments: ["healthcheck", "--port", String(port)])
        #expect(HealthCheck.runCommand(options: options, environment: [:]) == 1)
    }

    @Test func answer_TimesOut_WhenTheServerNeverAnswers() throws {
        let listener = try CannedHTTPListener(answer: nil)
        defer { listener.stop() }
        #expect(throws: HealthCheckError.timedOut) {
            try HealthCheck(port: listener.port, timeoutMilliseconds: 100).answer()
        }
    }

    @Test func answer_RejectsAnAnswerThatIsNotHTTP() throws {
        let listener = try CannedHTTPListener(answer: "SSH-2.0-OpenSSH\r\n")
        defer { listener.stop() }
        #expect(throws: HealthCheckError.malformedResponse) { try HealthCheck(port: listener.port).answer() }
    }

    @Test func answer_CutsTheBodyAtContentLength() throws {
        let answer = try HealthCheckAnswer(
            parsing: Array("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}trailing".utf8))
        #expect(answer == HealthCheckAnswer(status: 200, body: Array("{}".utf8)))
        #expect(HealthCheckAnswer.isComplete(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}".utf8)))
        #expect(!HealthCheckAnswer.isComplete(Array("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n{}".utf8)))
        #expect(HealthCheckAnswer(status: 200, body: Array(Self.gatewayHealth.utf8)).isGateway)
    }

    /// A configuration file naming `port` and `host`, removed by the caller.
    static func configFile(port: Int, host: String = "127.0.0.1") throws -> URL {
        try EndToEndCommandTests.temporaryFile(
            #"{"server": {"host": "\#(host)", "port": \#(port)}, "services": {"d": {"baseURL": "embedded:demo"}}, "repositories": {"a": {"route": "/a", "service": "d"}}}"#
        )
    }

    /// Where `healthcheck` calls: the server's address after the file, the environment and the
    /// flags, as `rds-gateway` itself resolves them.
    @Test(arguments: [
        (["healthcheck"], [:], "127.0.0.1", 9000),
        (["healthcheck"], ["RDS_PORT": "7000"], "127.0.0.1", 7000),
        (["healthcheck", "--port", "7100"], ["RDS_PORT": "7000"], "127.0.0.1", 7100),
        (["healthcheck"], ["RDS_HOST": "0.0.0.0"], "127.0.0.1", 9000),
        (["healthcheck", "--host", "::"], [:], "::1", 9000),
        (["healthcheck", "--host", "::1", "--port", "1"], ["RDS_HOST": "10.0.0.1"], "::1", 1),
    ] as [([String], [String: String], String, Int)])
    func target_FollowsTheConfigFileThenTheEnvironmentThenTheFlags(
        arguments: [String], environment: [String: String], host: String, port: Int
    ) throws {
        let file = try Self.configFile(port: 9000)
        defer { try? FileManager.default.removeItem(at: file) }
        let options = try CommandLineOptions(arguments: arguments)
        let (check, note) = try HealthCheck.target(
            options: options, environment: environment.merging(["RDS_CONFIG": file.path]) { $1 })
        #expect(check.host == host)
        #expect(check.port == port)
        #expect(note == nil)
    }

    @Test func target_FallsBackToFlagsAndEnvironment_WhenTheConfigCannotBeRead() throws {
        let options = try CommandLineOptions(arguments: ["healthcheck", "--config", "/nonexistent/gateway.json"])
        let (check, note) = try HealthCheck.target(options: options, environment: ["RDS_PORT": "7000"])
        #expect(check.port == 7000)
        #expect(note?.contains("cannot be read") == true)
        let fallback = try HealthCheck.target(options: options, environment: [:]).0
        #expect(fallback.port == HealthCheck.defaultPort)
    }

    @Test func target_RefusesPortZero_WhichOnlyTheServerResolves() throws {
        let file = try Self.configFile(port: 0)
        defer { try? FileManager.default.removeItem(at: file) }
        let options = try CommandLineOptions(arguments: ["healthcheck", "--config", file.path])
        #expect {
            try HealthCheck.target(options: options, environment: [:])
        } throws: { error in
            "\(error)".contains("--port N")
        }
    }
}
