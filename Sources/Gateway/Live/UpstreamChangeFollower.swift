import Foundation
import Glibc
import RDS
import Sockets
import Synchronization

/// Follows one service's Server-Sent Events stream of changes (`services.NAME.changes.url`) on a
/// thread of its own, with one connection: each event is handed to `apply` (as a webhook would
/// be applied), in order. When the stream ends or fails, it reconnects after 1 s, 2 s, 4 s … (at
/// most 60 s; the stream's `retry:` sets the first delay) with `Last-Event-ID`; every connection
/// after the first calls `resync` first, so keys followed meanwhile are revalidated (no silent gap).
final class UpstreamChangeFollower: Sendable {
    /// Applies one change; returns when it has been applied.
    typealias Apply = @Sendable (_ action: ChangeAction, _ paths: [String], _ tags: [String]) async -> Void

    private struct State {
        var stopped = false
        var lastEventID: String?
        var connections = 0
        var retry: TimeInterval = 1
    }

    private let state = Mutex(State())
    /// The service whose stream it follows.
    let service: String
    private let host: String
    private let port: Int
    private let target: String
    private let logger: any Logger
    private let apply: Apply
    private let resync: @Sendable () -> Void

    /// A follower of `url` (`http://host[:port]/path`); `nil` for another scheme. Call ``start()``.
    init?(
        service: String, url: URL, logger: any Logger, apply: @escaping Apply, resync: @escaping @Sendable () -> Void
    ) {
        guard url.scheme == "http", let host = url.host else { return nil }
        self.service = service
        self.host = host
        self.port = url.port ?? 80
        self.target = (url.path.isEmpty ? "/" : url.path) + (url.query.map { "?" + $0 } ?? "")
        self.logger = logger
        self.apply = apply
        self.resync = resync
    }

    /// The id of the last event received.
    var lastEventID: String? { state.withLock { $0.lastEventID } }

    /// How many times the stream was opened.
    var connections: Int { state.withLock { $0.connections } }

    /// Starts following on a thread of its own.
    func start() { Thread.detachNewThread { [self] in run() } }

    /// Stops following within a second (the connection is closed).
    func stop() { state.withLock { $0.stopped = true } }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func run() {
        var failures = 0
        while !isStopped {
            failures = follow() ? 1 : failures + 1
            let delay = state.withLock { min(60, $0.retry * pow(2, Double(max(0, failures - 1)))) }
            let until = Date().addingTimeInterval(delay)
            while !isStopped, Date() < until { Thread.sleep(forTimeInterval: min(0.05, delay)) }
        }
    }

    /// One connection: `true` when the stream was opened (and has now ended).
    private func follow() -> Bool {
        guard let socket = connect() else { return false }
        defer { socket.close() }
        let lastEventID = self.lastEventID
        var request = "GET \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nAccept: text/event-stream\r\n"
        if let lastEventID { request += "Last-Event-ID: \(lastEventID)\r\n" }
        guard send(Array((request + "\r\n").utf8), on: socket) else { return false }
        var head: [UInt8] = []
        var body: [UInt8] = []
        while true {
            guard let bytes = read(socket) else { return false }
            head += bytes
            if let end = head.firstRange(of: Array("\r\n\r\n".utf8)) {
                body = Array(head[end.upperBound...])
                head = Array(head[..<end.lowerBound])
                break
            }
            guard head.count < 16_384 else { return false }
        }
        let text = String(decoding: head, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 200") || text.hasPrefix("HTTP/1.0 200") else {
            logger.log(.warning, "changes_refused", ["service": .string(service), "status": .string(String(text.prefix(12)))])
            return false
        }
        let reconnected: Bool = state.withLock { state in
            state.connections += 1
            return state.connections > 1
        }
        logger.log(.info, "changes_connected", ["service": .string(service), "resync": .bool(reconnected)])
        if reconnected { resync() }
        var chunked = text.lowercased().contains("transfer-encoding: chunked") ? ChunkedBodyDecoder() : nil
        var parser = ServerSentEventParser()
        while !isStopped {
            let payload = chunked == nil ? body : chunked?.feed(body)
            guard let payload else { return true }
            for event in parser.feed(payload) { handle(event) }
            if let retry = parser.retry { state.withLock { $0.retry = max(0.01, Double(retry) / 1_000) } }
            if chunked?.isDone == true { return true }
            guard let next = read(socket) else { return true }
            body = next
        }
        return true
    }

    private func handle(_ event: ServerSentEventParser.Event) {
        if let id = event.id { state.withLock { $0.lastEventID = id } }
        guard let object = try? JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any] else {
            return
        }
        let action = (object["action"] as? String).flatMap(ChangeAction.init(rawValue:)) ?? .refresh
        let paths = object["paths"] as? [String] ?? []
        let tags = object["tags"] as? [String] ?? []
        guard !(paths.isEmpty && tags.isEmpty) else { return }
        let done = DispatchSemaphore(value: 0)
        let apply = apply
        Task {
            await apply(action, paths, tags)
            done.signal()
        }
        done.wait()
    }

    private func connect() -> Socket? {
        guard let address = try? SocketAddress(host: host, port: port),
            let (socket, connected) = try? Socket.connect(to: address)
        else { return nil }
        if !connected {
            guard socket.wait(for: Int16(POLLOUT), until: .now + .seconds(5)), socket.pendingError() == 0 else {
                socket.close()
                return nil
            }
        }
        return socket
    }

    private func send(_ bytes: [UInt8], on socket: Socket) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let result = bytes[offset...].withUnsafeBytes { socket.send($0) }
            switch result {
            case .sent(let count): offset += count
            case .wouldBlock: _ = socket.wait(for: Int16(POLLOUT), until: .now + .seconds(1))
            case .failed: return false
            }
        }
        return true
    }

    /// The next bytes, waiting a second at a time so ``stop()`` is seen; `nil` at the end.
    private func read(_ socket: Socket) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while !isStopped {
            let result = buffer.withUnsafeMutableBytes { socket.read(into: $0) }
            switch result {
            case .bytes(let count): return Array(buffer[..<count])
            case .wouldBlock: _ = socket.wait(for: Int16(POLLIN), until: .now + .seconds(1))
            case .closed, .failed: return nil
            }
        }
        return nil
    }
}
