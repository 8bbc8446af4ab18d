import Foundation
import RDSTesting
import Sockets
import Testing

@testable import Redis

/// The client against a real `redis-server` started for each test (skipped with a reason when
/// it is not installed, failing when `RDS_REQUIRE_SERVICES=1`).
@Suite(.enabled(if: RedisTestServer.isEnabled, "needs redis-server (apt-get install redis-server)"))
struct RedisClientTests {
    private static func client(_ url: String, _ change: (inout RedisConfiguration) -> Void = { _ in }) throws -> RedisClient {
        var configuration = try RedisConfiguration(url: url, connectTimeout: .seconds(2), commandTimeout: .seconds(2))
        change(&configuration)
        return RedisClient(configuration: configuration)
    }

    @Test func commands_RoundTripBinaryValues_OverRESP3() async throws {
        let server = try await RedisTestServer.start()
        let client = try Self.client(server.url)
        let value: [UInt8] = [0, 13, 10, 255, 36, 42]
        try await client.send(RedisCommand(parts: [Array("SET".utf8), Array("k".utf8), value]))
        #expect(try await client.send(RedisCommand("GET", "k")).bytes == value)
        #expect(try await client.send(RedisCommand("GET", "missing")).isNull)
        #expect(client.protocolVersion == 3)
        await server.stop()
    }

    @Test func pipeline_ReturnsOneReplyPerCommand_WithErrorsInPlace() async throws {
        let server = try await RedisTestServer.start()
        let client = try Self.client(server.url)
        let replies = try await client.pipeline([
            RedisCommand("SET", "a", "1"), RedisCommand("INCR", "a"), RedisCommand("LPUSH", "a", "x"),
            RedisCommand("GET", "a"),
        ])
        #expect(replies.count == 4)
        #expect(replies[1] == .integer(2))
        guard case .error(let text) = replies[2] else { throw RedisError(.protocolError, "expected an error reply") }
        #expect(text.hasPrefix("WRONGTYPE"))
        #expect(replies[3].string == "2")
        await server.stop()
    }

    @Test func concurrentCommands_ShareTheConnections_AndAllAnswer() async throws {
        let server = try await RedisTestServer.start()
        let client = try Self.client(server.url)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<500 {
                group.addTask { try await client.send(RedisCommand("INCRBY", "n", String(index))) }
            }
            try await group.waitForAll()
        }
        #expect(try await client.send(RedisCommand("GET", "n")).integer == Int64((0..<500).reduce(0, +)))
        #expect(client.connectCount <= client.configuration.poolSize)
        await server.stop()
    }

    @Test func errorReply_IsAServerError_NamingTheCommand() async throws {
        let server = try await RedisTestServer.start()
        let client = try Self.client(server.url)
        do {
            try await client.send(RedisCommand("NOSUCHCOMMAND", "x"))
            Issue.record("no error")
        } catch {
            #expect(error.kind == .server)
            #expect(error.message.contains("NOSUCHCOMMAND"))
        }
        await server.stop()
    }

    @Test func userAndPassword_Authenticate_AndAWrongPasswordIsRefused() async throws {
        let server = try await RedisTestServer.start(arguments: [
            "--user", "gateway", "on", ">s3cret", "~*", "&*", "+@all", "--user", "default", "off",
        ])
        let good = try Self.client(server.url) {
            $0.username = "gateway"
            $0.password = "s3cret"
        }
        try await good.send(RedisCommand("SET", "k", "v"))
        #expect(try await good.send(RedisCommand("GET", "k")).string == "v")
        let bad = try Self.client(server.url) {
            $0.username = "gateway"
            $0.password = "wrong"
        }
        do {
            try await bad.send(RedisCommand("GET", "k"))
            Issue.record("wrong password accepted")
        } catch {
            #expect(error.kind == .unavailable || error.kind == .authentication)
            #expect(!error.description.contains("wrong"))
        }
        await server.stop()
    }

    @Test func withoutHELLO_FallsBackToAUTHAndRESP2() async throws {
        let server = try await RedisTestServer.start(arguments: ["--requirepass", "pw", "--rename-command", "HELLO", ""])
        let client = try Self.client(server.url) { $0.password = "pw" }
        try await client.send(RedisCommand("SET", "k", "v"))
        #expect(try await client.send(RedisCommand("GET", "k")).string == "v")
        #expect(client.protocolVersion == 2)
        await server.stop()
    }

    @Test func select_UsesTheURLsDatabase_AndUnixSocketsWork() async throws {
        let server = try await RedisTestServer.start()
        let two = try Self.client("unix://\(server.socketPath)?db=2")
        try await two.send(RedisCommand("SET", "k", "in-2"))
        let zero = try Self.client(server.url)
        #expect(try await zero.send(RedisCommand("GET", "k")).isNull)
        let twoOverTCP = try Self.client(server.url + "/2")
        #expect(try await twoOverTCP.send(RedisCommand("GET", "k")).string == "in-2")
        await server.stop()
    }

    @Test func hungServer_TimesOut_AndTheClientRecovers() async throws {
        let server = try await RedisTestServer.start()
        let client = try Self.client(server.url) {
            $0.commandTimeout = .milliseconds(200)
            $0.poolSize = 1
        }
        try await client.send(RedisCommand("PING"))
        server.freeze()
        do {
            try await client.send(RedisCommand("GET", "k"))
            Issue.record("no timeout")
        } catch {
            #expect(error.kind == .timeout)
        }
        server.thaw()
        var answered = false
        for _ in 0..<100 where !answered {
            answered = (try? await client.send(RedisCommand("PING"))) != nil
            if !answered { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(answered)
        #expect(client.connectCount >= 2)
        await server.stop()
    }

    @Test func downServer_FailsFast_ThenReconnectsWhenBack() async throws {
        let server = try await RedisTestServer.start()
        let client = try Self.client(server.url) { $0.poolSize = 1 }
        try await client.send(RedisCommand("SET", "k", "v"))
        await server.stop()
        for _ in 0..<3 {
            do {
                try await client.send(RedisCommand("GET", "k"))
                Issue.record("answered while down")
            } catch {
                #expect([.unavailable, .protocolError].contains(error.kind))
            }
        }
        let again = try await RedisTestServer.start(port: server.port)
        var answered = false
        for _ in 0..<100 where !answered {
            answered = (try? await client.send(RedisCommand("PING"))) != nil
            if !answered { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(answered)
        #expect(client.connectCount == 2)
        await again.stop()
    }

    @Test func streams_ReadEntriesAddedAfterAnId_InBothProtocols() async throws {
        let server = try await RedisTestServer.start()
        for version in ["2", "3"] {
            let client = try Self.client(server.url)
            if version == "2" { try await client.send(RedisCommand("HELLO", "2")) }
            let first = try #require(try await client.send(RedisCommand("XADD", "s\(version)", "*", "op", "purge")).string)
            try await client.send(RedisCommand("XADD", "s\(version)", "*", "op", "stored", "key", "k"))
            let reply = try await client.send(RedisCommand("XREAD", "COUNT", "10", "STREAMS", "s\(version)", first))
            let entries = try RedisStreamEntry.entries(inReadReply: reply)
            #expect(entries.count == 1)
            #expect(entries.first?["op"] == "stored")
            #expect(entries.first?["key"] == "k")
            let timedOut = try await client.send(
                RedisCommand("XREAD", "BLOCK", "10", "STREAMS", "s\(version)", "$"), extraTime: .milliseconds(10))
            #expect(try RedisStreamEntry.entries(inReadReply: timedOut).isEmpty)
        }
        await server.stop()
    }
}
