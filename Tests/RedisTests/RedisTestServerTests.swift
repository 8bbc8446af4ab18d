import RDSTesting
import Sockets
import Testing

/// The test fixture itself: a `redis-server` that cannot take its port is reported as exited at
/// once (and, when no port was asked for, started again on another one), instead of being waited
/// for until the time limit as if it were slow.
@Suite(.enabled(if: RedisTestServer.isEnabled, "needs redis-server (apt-get install redis-server)"))
struct RedisTestServerTests {
    @Test func start_ReportsThatTheServerExited_WhenItsPortIsTaken() async throws {
        let taken = try Socket.listen(on: try SocketAddress(host: "127.0.0.1", port: 0), backlog: 1)
        defer { taken.close() }
        do {
            let server = try await RedisTestServer.start(port: try taken.localAddress().port)
            await server.stop()
            Issue.record("redis-server started on a port another socket listens on")
        } catch let failure as ChildProcess.Failure {
            #expect(failure.description.contains("it exited"), "\(failure.description)")
        }
    }
}
