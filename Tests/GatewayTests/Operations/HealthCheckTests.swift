import Foundation
import Gateway
import Testing

struct HealthCheckTests {
    @Test func status_ReturnsTheCode_FromARealListener() throws {
        let listener = try CannedHTTPListener(answer: "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
        defer { listener.stop() }
        #expect(try HealthCheck(port: listener.port).status() == 503)
    }

    @Test func runCommand_ExitsZero_WhenHealthAnswers200() throws {
        let listener = try CannedHTTPListener(
            answer: "HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\n{\"status\":\"ok\"}")
        defer { listener.stop() }
        #expect(HealthCheck.runCommand(arguments: ["--port", String(listener.port)], environment: [:]) == 0)
        #expect(HealthCheck.runCommand(arguments: [], environment: ["RDS_PORT": String(listener.port)]) == 0)
    }

    @Test func runCommand_ExitsOne_WhenNothingListens() throws {
        let closed = try RefusingPort()
        defer { withExtendedLifetime(closed) {} }
        let port = closed.port
        #expect(throws: HealthCheckError.self) { try HealthCheck(port: port).status() }
        #expect(HealthCheck.runCommand(arguments: ["--port", String(port)], environment: [:]) == 1)
    }

    @Test func status_TimesOut_WhenTheServerNeverAnswers() throws {
        let listener = try CannedHTTPListener(answer: nil)
        defer { listener.stop() }
        #expect(throws: HealthCheckError.timedOut) {
            try HealthCheck(port: listener.port, timeoutMilliseconds: 100).status()
        }
    }

    @Test func status_RejectsAnAnswerThatIsNotHTTP() throws {
        let listener = try CannedHTTPListener(answer: "SSH-2.0-OpenSSH\r\n")
        defer { listener.stop() }
        #expect(throws: HealthCheckError.malformedResponse) { try HealthCheck(port: listener.port).status() }
    }

    @Test(arguments: [
        (["--port"], "needs a value"), (["--port", "0"], "1 to 65535"), (["--port", "http"], "1 to 65535"),
        (["--verbose"], "unknown argument"),
    ])
    func init_RejectsBadArguments(arguments: [String], message: String) {
        #expect {
            try HealthCheck(arguments: arguments, environment: [:])
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func init_ReadsPortAndHost_FlagsOverRDSPort() throws {
        let check = try HealthCheck(arguments: ["--host", "::1", "--port", "9000"], environment: ["RDS_PORT": "7000"])
        #expect(check.host == "::1")
        #expect(check.port == 9000)
        #expect(try HealthCheck(arguments: [], environment: [:]).port == HealthCheck.defaultPort)
    }
}
