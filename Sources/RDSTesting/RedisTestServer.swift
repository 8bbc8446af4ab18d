import Foundation
import Glibc

/// A real `redis-server` started for a test on a free loopback port (and a Unix socket beside
/// it), with no persistence, stopped by ``stop()``. Tests that need one are skipped with a reason
/// when `redis-server` is not installed, unless `RDS_REQUIRE_SERVICES=1` (CI), where they fail.
public final class RedisTestServer: Sendable {
    /// The installed `redis-server`, or `nil`.
    public static let executable: String? = ["/usr/bin/redis-server", "/usr/local/bin/redis-server", "/usr/sbin/redis-server"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    /// `true` when a missing `redis-server` must fail the test (`RDS_REQUIRE_SERVICES=1`).
    public static let isRequired = ProcessInfo.processInfo.environment["RDS_REQUIRE_SERVICES"] == "1"
    /// Whether tests needing Redis run: it is installed, or it is required (and they fail).
    public static let isEnabled = executable != nil || isRequired

    /// The TCP port.
    public let port: Int
    /// The Unix-domain socket file.
    public let socketPath: String
    /// `redis://127.0.0.1:<port>`.
    public var url: String { "redis://127.0.0.1:\(port)" }
    private let process: ChildProcess
    private let folder: String

    private init(port: Int, socketPath: String, folder: String, process: ChildProcess) {
        self.port = port
        self.socketPath = socketPath
        self.folder = folder
        self.process = process
    }

    /// Starts `redis-server` and waits until it accepts connections.
    /// - Parameters:
    ///   - port: The port, or `nil` for a free one (a restart passes the old one).
    ///   - arguments: More `redis-server` options, e.g. `["--requirepass", "secret"]`.
    /// - Throws: when `redis-server` is missing or does not come up within 10 s.
    public static func start(port: Int? = nil, arguments: [String] = []) async throws -> RedisTestServer {
        guard let executable else {
            throw ChildProcess.Failure(description: "redis-server is required (RDS_REQUIRE_SERVICES=1) but not installed")
        }
        // A free port can be taken by another socket before redis-server binds it (the server
        // then exits at once): without a port asked for, it is started again on another one.
        var attempt = 1
        while true {
            let chosen = try port ?? freePort()
            let server = try launch(executable, port: chosen, arguments: arguments)
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline, !server.process.hasExited {
                if server.acceptsConnections() { return server }
                try await Task.sleep(for: .milliseconds(20))
            }
            let exited = server.process.hasExited
            await server.stop()
            guard exited, port == nil, attempt < 3 else {
                throw ChildProcess.Failure(
                    description: "redis-server did not listen on port \(chosen) within 10 s" + (exited ? " (it exited)" : ""))
            }
            attempt += 1
        }
    }

    /// Starts `redis-server` on `port` with its own folder and Unix socket.
    private static func launch(_ executable: String, port: Int, arguments: [String]) throws -> RedisTestServer {
        let folder = NSTemporaryDirectory() + "rds-redis-\(getpid())-\(port)-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let socketPath = folder + "/redis.sock"
        let process = try ChildProcess(
            executable: executable,
            arguments: [
                "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--unixsocket", socketPath, "--unixsocketperm", "700", "--dir", folder, "--logfile", "",
                "--protected-mode", "no",
            ] + arguments,
            environment: [:])
        return RedisTestServer(port: port, socketPath: socketPath, folder: folder, process: process)
    }

    /// Freezes the server (`SIGSTOP`): connections stay open, nothing is answered (a hung Redis).
    public func freeze() {
        process.send(SIGSTOP)
    }

    /// Lets a frozen server run again (`SIGCONT`).
    public func thaw() {
        process.send(SIGCONT)
    }

    /// Stops the server at once (`SIGKILL`, like a crash) and waits for it to end.
    public func stop() async {
        process.send(SIGKILL)
        _ = await process.exitStatus()
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func acceptsConnections() -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return connected == 0 && FileManager.default.fileExists(atPath: socketPath)
    }

    /// A port nothing listens on now (bound and released).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ChildProcess.Failure(description: "socket failed (errno \(errno))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 ? getsockname(fd, pointer, &length) : -1
            }
        }
        guard status == 0 else { throw ChildProcess.Failure(description: "bind failed (errno \(errno))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
