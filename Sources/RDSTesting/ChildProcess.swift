import Foundation
import Glibc
import Synchronization

/// A child process started with `posix_spawn`, for the process-level tests.
///
/// Not Foundation's `Process`: on Linux its `run()` copies each `/proc/self/fd` entry's whole
/// 256-byte `d_name`, reading past the end of glibc's directory buffer (swift-corelibs-foundation
/// pull request 5472), which crashed the test process (SIGSEGV in `Process.run()`) when a test
/// running in parallel held many sockets open.
///
/// The child gets `/dev/null` as standard input and output unless given descriptors for them, a
/// pipe as standard error (read into ``standardError``), no other descriptor of this process
/// (`closefrom(3)` in the child), and its own process group.
public final class ChildProcess: Sendable {
    /// Why the child could not be started.
    public struct Failure: Error, CustomStringConvertible {
        /// The failed call and its errno.
        public var description: String
    }

    /// The child's process id.
    public let pid: pid_t
    /// What the child writes to its standard error, chunk by chunk; finishes when it closes it.
    public let standardError: AsyncStream<[UInt8]>
    private struct Exit {
        /// The exit code (or signal) once the child has been reaped.
        var status: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    private let exit = Mutex(Exit())
    /// Set by ``stopReadingStandardError()``: the reader closes the pipe after its next chunk.
    private let stopsReading = Atomic<Bool>(false)

    /// Starts `executable` with `arguments` and exactly `environment`.
    /// - Parameters:
    ///   - standardInput: A descriptor of this process the child reads as its standard input
    ///     (e.g. a pipe's read end); `/dev/null` when `nil`.
    ///   - standardOutput: A descriptor the child writes its standard output to; `/dev/null` when `nil`.
    /// - Throws: ``Failure`` when the pipe cannot be made or `posix_spawn` fails.
    public init(
        executable: String, arguments: [String], environment: [String: String], standardInput: Int32? = nil,
        standardOutput: Int32? = nil
    ) throws {
        var pipe: [Int32] = [-1, -1]
        guard Glibc.pipe(&pipe) == 0 else { throw Failure(description: "pipe failed (errno \(errno))") }
        for end in pipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput {
            posix_spawn_file_actions_adddup2(&actions, standardInput, STDIN_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        }
        if let standardOutput {
            posix_spawn_file_actions_adddup2(&actions, standardOutput, STDOUT_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], STDERR_FILENO)
        guard Self.addCloseFrom(3, to: &actions) else {
            close(pipe[0])
            close(pipe[1])
            throw Failure(description: "posix_spawn_file_actions_addclosefrom_np is missing (glibc 2.34 or later)")
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(pipe[1])
        guard status == 0 else {
            close(pipe[0])
            throw Failure(description: "posix_spawn \(executable) failed (errno \(status))")
        }
        self.pid = pid
        let (chunks, output) = AsyncStream.makeStream(of: [UInt8].self)
        standardError = chunks
        let reader = pipe[0]
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                output.yield(Array(buffer[..<count]))
                if stopsReading.load(ordering: .relaxed) { break }
            }
            close(reader)
            output.finish()
        }
        Thread.detachNewThread { [self] in waitForExit() }
    }

    /// Closes the read end of the child's standard error once the next chunk is read (as when
    /// the process reading a daemon's log goes away): ``standardError`` finishes then.
    public func stopReadingStandardError() {
        stopsReading.store(true, ordering: .relaxed)
    }

    /// Sends `signal` to the child unless it has been reaped (its pid may belong to another
    /// process by then).
    public func send(_ signal: Int32) {
        exit.withLock { exit in
            if exit.status == nil { _ = kill(pid, signal) }
        }
    }

    /// `true` once the child has ended and been reaped.
    public var hasExited: Bool { exit.withLock { $0.status != nil } }

    /// Waits for the child to end and returns its exit code (or the signal that ended it).
    public func exitStatus() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status = exit.withLock { exit in
                if exit.status == nil { exit.waiters.append(continuation) }
                return exit.status
            }
            if let status { continuation.resume(returning: status) }
        }
    }

    /// Blocks until the child ends, then reaps it and wakes the waiters. It waits without reaping
    /// first and reaps under the lock ``send(_:)`` takes, so no signal can reach another process
    /// that was given the same pid.
    private func waitForExit() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        var status: Int32 = 0
        let (code, waiters) = exit.withLock { exit in
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            // Like Foundation: the exit code, or the number of the signal that ended the child.
            let signal = status & 0x7f
            let code = signal == 0 ? (status >> 8) & 0xff : signal
            exit.status = code
            defer { exit.waiters = [] }
            return (code, exit.waiters)
        }
        for waiter in waiters { waiter.resume(returning: code) }
    }

    /// Adds `closefrom(lowest)` to `actions` (a glibc extension the Glibc module does not import).
    private static func addCloseFrom(_ lowest: Int32, to actions: inout posix_spawn_file_actions_t) -> Bool {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return false }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, lowest) == 0
    }
}
