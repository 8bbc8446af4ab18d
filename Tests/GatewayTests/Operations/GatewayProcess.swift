import Foundation
import RDSTesting
import Synchronization

/// The built `rds-gateway` binary running as a child process on a loopback port, with its JSON
/// log lines collected as they come: the subject of the process-level operations tests.
final class GatewayProcess: Sendable {
    /// One log line, every value as text.
    typealias Event = [String: String]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private struct Log {
        var events: [Event] = []
        var text = ""
        var ended = false
        var waiters: [(name: String, continuation: CheckedContinuation<Event?, Never>)] = []
    }

    private let process: ChildProcess
    private let log = Mutex(Log())
    private let boundPort = Mutex(0)

    /// The configuration file the gateway was started with.
    let configFile: URL

    /// The port the gateway listens on, from its `started` event.
    var port: Int { boundPort.withLock { $0 } }

    /// Starts the binary with `config` (port 0 on 127.0.0.1) and waits for its `started` event.
    init(config: URL, environment: [String: String] = [:]) async throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("rds-gateway")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw Failure(description: "no rds-gateway binary at \(binary.path): build the package first")
        }
        configFile = config
        process = try ChildProcess(
            executable: binary.path, arguments: [],
            environment: [
                "PATH": "/usr/bin:/bin", "RDS_CONFIG": config.path, "RDS_HOST": "127.0.0.1", "RDS_PORT": "0",
                "RDS_LOG_LEVEL": "info",
            ].merging(environment) { $1 })
        let output = process.standardError
        Task { [weak self] in
            var pending: [UInt8] = []
            for await data in output {
                pending += data
                while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Data(pending[..<end])
                    pending.removeSubrange(...end)
                    self?.recordText(String(decoding: line, as: UTF8.self))
                    guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
                    self?.record(object.mapValues { "\($0)" })
                }
            }
            self?.endLog()
        }
        guard let started = await event(named: "started"), let address = started["address"],
            let port = address.split(separator: ":").last.flatMap({ Int($0) })
        else {
            stop()
            throw Failure(description: "the gateway ended or logged no address before starting")
        }
        boundPort.withLock { $0 = port }
    }

    /// Closes the gateway's standard error after its next log line; returns once it is closed.
    /// `trigger` must make the gateway log something.
    func closeLog(trigger: () async throws -> Void) async throws {
        process.stopReadingStandardError()
        try await trigger()
        _ = await event(named: "")  // no event has an empty name: returns when the log ends
    }

    /// Sends `signal` to the gateway.
    func send(_ signal: Int32) {
        process.send(signal)
    }

    /// Waits for the process to end and returns its exit status.
    func exitStatus() async -> Int32 {
        await process.exitStatus()
    }

    /// The first log event named `name`, waiting for it; `nil` when the log ended without one.
    func event(named name: String) async -> Event? {
        await withCheckedContinuation { continuation in
            let found: Event?? = log.withLock { log in
                if let event = log.events.first(where: { $0["event"] == name }) { return .some(event) }
                if log.ended { return .some(nil) }
                log.waiters.append((name, continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    /// Ends the process if it is still running (test clean-up).
    func stop() {
        process.send(SIGKILL)
    }

    /// Everything the gateway wrote to its standard error so far, line by line.
    var output: String { log.withLock { $0.text } }

    private func recordText(_ line: String) {
        log.withLock { $0.text += line + "\n" }
    }

    private func record(_ event: Event) {
        let due = log.withLock { log in
            log.events.append(event)
            let due = log.waiters.filter { $0.name == event["event"] }
            log.waiters.removeAll { $0.name == event["event"] }
            return due
        }
        for waiter in due { waiter.continuation.resume(returning: event) }
    }

    private func endLog() {
        let waiters = log.withLock { log in
            log.ended = true
            defer { log.waiters = [] }
            return log.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
    }
}
