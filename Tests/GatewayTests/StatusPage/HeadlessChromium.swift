import Foundation
import Glibc
import RDSTesting
import Synchronization

/// A headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
/// commands on its fd 3, answers and events on its fd 4, each message ending in a NUL byte). The
/// pipe's bytes are read on a thread of their own, so waiting for the browser never blocks the
/// Swift concurrency pool the gateway under test answers on.
final class HeadlessChromium: Sendable {
    /// A DevTools protocol error or a browser that went away.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let process: ChildProcess
    private let commands: FileHandle
    private let profile: URL
    private let state = Mutex<State>(State())

    private struct State {
        var nextID = 1
        var waiting: [Int: CheckedContinuation<Data, any Error>] = [:]
        var closed = false
    }

    /// The browser's executable on `PATH` (`chromium`, `chromium-browser`, `google-chrome`), or `nil`.
    static func executable() -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }

    /// Starts the browser with an empty profile of its own (with `posix_spawn`, see ``ChildProcess``:
    /// Foundation's `Process.run()` crashed the test process when other tests held many sockets).
    init(executable: String) throws {
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("rds-chromium-\(UUID().uuidString)")
        var toBrowser: [Int32] = [-1, -1]
        var fromBrowser: [Int32] = [-1, -1]
        guard pipe(&toBrowser) == 0 else { throw Failure(description: "pipe failed (errno \(errno))") }
        guard pipe(&fromBrowser) == 0 else {
            toBrowser.forEach { Glibc.close($0) }
            throw Failure(description: "pipe failed (errno \(errno))")
        }
        for end in toBrowser + fromBrowser { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // The browser's ends are closed here once it has them (or failed to start).
        defer {
            Glibc.close(toBrowser[0])
            Glibc.close(fromBrowser[1])
        }
        commands = FileHandle(fileDescriptor: toBrowser[1], closeOnDealloc: true)
        let answers = FileHandle(fileDescriptor: fromBrowser[0], closeOnDealloc: true)
        // The shell moves our pipes to the descriptors the protocol uses and silences the browser's own output.
        process = try ChildProcess(
            executable: "/bin/sh",
            arguments: [
                "-c", #"exec "$0" "$@" 3<&0 4>&1 0</dev/null 1>/dev/null 2>/dev/null"#, executable,
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--remote-debugging-pipe", "--user-data-dir=\(profile.path)", "--window-size=1280,900", "about:blank",
            ],
            environment: ProcessInfo.processInfo.environment, standardInput: toBrowser[0],
            standardOutput: fromBrowser[1])
        let reader = Thread { [self] in read(answers) }
        reader.start()
    }

    /// Sends one command and waits for its answer's `result`.
    /// - Parameter session: The page session from `Target.attachToTarget`, `nil` for the browser.
    func send(_ method: String, _ params: [String: Any] = [:], session: String? = nil) async throws -> [String: Any] {
        var message: [String: Any] = ["method": method, "params": params]
        if let session { message["sessionId"] = session }
        let answer = try await exchange(message)
        let object = try JSONSerialization.jsonObject(with: answer) as? [String: Any] ?? [:]
        if let error = object["error"] as? [String: Any] {
            throw Failure(description: "\(method): \(error["message"] ?? error)")
        }
        return object["result"] as? [String: Any] ?? [:]
    }

    /// Sends `message` with a new id and waits for the answer carrying that id.
    private func exchange(_ message: [String: Any]) async throws -> Data {
        var message = message
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        message["id"] = id
        var bytes = try JSONSerialization.data(withJSONObject: message)
        bytes.append(0)
        return try await withCheckedThrowingContinuation { continuation in
            let open = state.withLock { state in
                if !state.closed { state.waiting[id] = continuation }
                return !state.closed
            }
            guard open else {
                continuation.resume(throwing: Failure(description: "the browser has gone"))
                return
            }
            do {
                try commands.write(contentsOf: bytes)
            } catch {
                state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(throwing: error)
            }
        }
    }

    /// Opens `url` in a new page and returns its session.
    func open(_ url: String) async throws -> String {
        let target = try await send("Target.createTarget", ["url": url])
        guard let targetID = target["targetId"] as? String else { throw Failure(description: "no target: \(target)") }
        let attached = try await send("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw Failure(description: "no session") }
        return session
    }

    /// Evaluates `expression` in the page and returns its value (a string, number or boolean).
    func evaluate(_ expression: String, session: String) async throws -> Any? {
        let answer = try await send(
            "Runtime.evaluate", ["expression": expression, "returnByValue": true], session: session)
        return (answer["result"] as? [String: Any])?["value"]
    }

    /// Polls `expression` every 50 ms until it is `true`, for at most `seconds` of real time.
    func waitUntil(_ expression: String, session: String, seconds: Double = 20) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await evaluate(expression, session: session) as? Bool == true { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Saves a PNG of the page's viewport to `file`.
    func screenshot(session: String, to file: URL) async throws {
        let answer = try await send("Page.captureScreenshot", ["format": "png"], session: session)
        guard let base64 = answer["data"] as? String, let png = Data(base64Encoded: base64) else {
            throw Failure(description: "no screenshot")
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try png.write(to: file)
    }

    /// Starts a browser, runs `body` with it, and closes it whatever `body` does.
    static func run<Result>(
        executable: String, _ body: (HeadlessChromium) async throws -> Result
    ) async throws -> Result {
        let browser = try HeadlessChromium(executable: executable)
        do {
            let result = try await body(browser)
            await browser.close()
            return result
        } catch {
            await browser.close()
            throw error
        }
    }

    /// Closes the browser (`SIGKILL` if it has not ended 10 s after `SIGTERM`) and, once it has
    /// ended, removes its profile. Waits without holding a thread of the concurrency pool.
    func close() async {
        try? commands.close()
        process.send(SIGTERM)
        let process = process
        let killer = Task {
            try await Task.sleep(for: .seconds(10))
            process.send(SIGKILL)
        }
        _ = await process.exitStatus()
        killer.cancel()
        try? FileManager.default.removeItem(at: profile)
    }

    private func read(_ answers: FileHandle) {
        var buffer = Data()
        while true {
            let chunk = answers.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let end = buffer.firstIndex(of: 0) {
                let message = buffer[buffer.startIndex..<end]
                buffer.removeSubrange(buffer.startIndex...end)
                deliver(message)
            }
        }
        let orphans = state.withLock { state in
            state.closed = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in orphans { continuation.resume(throwing: Failure(description: "the browser has gone")) }
    }

    private func deliver(_ message: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: message) as? [String: Any],
            let id = object["id"] as? Int,
            let continuation = state.withLock({ $0.waiting.removeValue(forKey: id) })
        else { return }  // events, and answers nobody waits for
        continuation.resume(returning: Data(message))
    }
}
