import Foundation
import Synchronization

/// The built `rds-gateway` binary running as a child process on a loopback port, with its JSON
/// log lines readable as they come: the subject of the process-level operations tests.
final class GatewayProcess: Sendable {
    /// One parsed log line.
    typealias Event = [String: any Sendable]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let process: Process
    private let events: Mutex<AsyncStream<Event>.Iterator?>
    private let exit: Mutex<Task<Int32, Never>?>
    /// The port the gateway listens on, from its `started` event.
    let port: Int

    /// Starts the binary with `config` and waits for its `started` event.
    init(config: URL, environment: [String: String] = [:]) async throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("rds-gateway")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw Failure(description: "no rds-gateway binary at \(binary.path): build the package first")
        }
        let process = Process()
        process.executableURL = binary
        process.environment = [
            "PATH": "/usr/bin:/bin", "RDS_CONFIG": config.path, "RDS_HOST": "127.0.0.1", "RDS_PORT": "0",
            "RDS_LOG_LEVEL": "info",
        ].merging(environment) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        let buffer = Mutex<[UInt8]>([])
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                continuation.finish()
                handle.readabilityHandler = nil
                return
            }
            let lines: [[UInt8]] = buffer.withLock { buffer in
                buffer += data
                var lines: [[UInt8]] = []
                while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(Array(buffer[..<end]))
                    buffer.removeSubrange(...end)
                }
                return lines
            }
            for line in lines {
                if let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] {
                    continuation.yield(object.mapValues { "\($0)" })
                }
            }
        }
        let (exited, exit) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { process in
            exit.yield(process.terminationStatus)
            exit.finish()
        }
        try process.run()
        self.process = process
        self.events = Mutex(stream.makeAsyncIterator())
        self.exit = Mutex(Task { await exited.first { _ in true } ?? -1 })
        var iterator = stream.makeAsyncIterator()
        var started: Event?
        while let event = await iterator.next() {
            if event["event"] as? String == "started" {
                started = event
                break
            }
        }
        events.withLock { $0 = iterator }
        guard let address = started?["address"] as? String, let port = address.split(separator: ":").last.flatMap({ Int($0) })
        else {
            process.terminate()
            throw Failure(description: "the gateway exited or logged no address before starting")
        }
        self.port = port
    }

    /// Sends `signal` to the gateway.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end and returns its exit status.
    func exitStatus() async -> Int32 {
        let task = exit.withLock { $0 }
        return await task?.value ?? -1
    }

    /// Waits for the next log event named `name`; `nil` when the process ended first.
    func nextEvent(named name: String) async -> Event? {
        var iterator = events.withLock { iterator in
            defer { iterator = nil }
            return iterator
        }
        defer { events.withLock { $0 = iterator } }
        while let event = await iterator?.next() {
            if event["event"] as? String == name { return event }
        }
        return nil
    }

    /// Ends the process if it is still running (test clean-up).
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
