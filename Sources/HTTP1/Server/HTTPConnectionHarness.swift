import Glibc
import Sockets

/// Drives real `HTTPConnection`s over socket pairs with chosen read boundaries: each part of the
/// input is sent only once the server has read everything before it, so the connection sees
/// exactly those reads. The connection split test and the libFuzzer target (`Tests/Fuzz`) share it.
///
/// Its calls block the calling thread (never call them from the cooperative pool: handler tasks
/// run there). Not for production use.
@_spi(Testing) public final class HTTPConnectionHarness: Sendable {
    /// How the client side ends once every part is sent.
    public enum Ending: Sendable, CaseIterable {
        /// Reads the answers (and, when the server should close, until it does), then closes.
        case readAnswers
        /// Closes at once without reading: the client goes away mid-conversation.
        case leave
    }

    /// What the client saw.
    public struct Outcome: Sendable, Equatable, CustomStringConvertible {
        /// Final answers in order (interim 1xx skipped).
        public var answers: [HTTPConnectionHarness.Answer] = []
        /// The server closed its side after the answers.
        public var serverClosed = false
        /// Bytes after the last answer that are not a valid answer.
        public var trailingBytes = 0

        /// Answers, close and trailing bytes, for messages.
        public var description: String { "\(answers) closed: \(serverClosed) trailing: \(trailingBytes)" }
    }

    /// One answer: its status and body.
    public struct Answer: Sendable, Equatable, CustomStringConvertible {
        /// The status code.
        public var status: Int
        /// The body as text.
        public var body: String

        /// Creates an answer.
        public init(status: Int, body: String) {
            self.status = status
            self.body = body
        }

        /// `status body`.
        public var description: String { "\(status) \(body)" }
    }

    private let loop: EventLoop
    private let context: HTTPConnectionContext
    private let readTimeout: Duration

    /// A harness serving `handler` with `configuration` on an event loop of its own; every read
    /// of an answer gives up after `readTimeout`.
    /// - Throws: `SocketError` when the loop cannot start.
    public init(
        handler: any HTTPHandler, configuration: HTTPServer.Configuration, readTimeout: Duration = .seconds(5)
    ) throws {
        loop = try EventLoop(checkInterval: configuration.timeouts.checkInterval)
        try loop.start()
        context = HTTPConnectionContext(
            handler: handler, configuration: configuration, tracker: ConnectionTracker(maximum: .max))
        self.readTimeout = readTimeout
    }

    deinit { loop.stop() }

    /// Connections of this harness still open.
    public var openConnections: Int { context.tracker.openConnections }

    /// Opens a connection, sends `parts` as separate reads, ends as `ending` says, and returns
    /// what came back. `methods` are the methods of the requests answered, in order (a `HEAD`
    /// answer has no body); `expectsClose` says whether the server should close after them.
    /// - Throws: `SocketError` when the socket pair cannot be made.
    public func run(
        _ parts: [[UInt8]], ending: Ending, methods: [HTTPMethod], expectsClose: Bool
    ) throws -> Outcome {
        let (server, client) = try Socket.makePair()
        defer { client.close() }
        _ = context.tracker.admit()
        let (loop, context) = (self.loop, self.context)
        loop.execute {
            HTTPConnection(socket: server, remoteAddress: "harness", loop: loop, context: context).start()
        }
        var reader = HTTPHarnessReader(socket: client, timeout: readTimeout)
        for (index, part) in parts.enumerated() where !part.isEmpty {
            if index > 0 { waitUntilRead(server.fd) }
            guard reader.send(part) else { break }
        }
        guard ending == .readAnswers else { return Outcome() }
        return reader.readAnswers(methods: methods, untilClose: expectsClose)
    }

    /// `bytes` cut into reads at the ascending offsets `cuts` (each within `0...bytes.count`).
    public static func parts(of bytes: [UInt8], cutAt cuts: [Int]) -> [[UInt8]] {
        zip([0] + cuts, cuts + [bytes.count]).map { Array(bytes[$0..<$1]) }
    }

    /// Waits until every connection has closed (after its client left); `false` after `timeout`.
    public func waitUntilAllClosed(timeout: Duration = .seconds(5)) -> Bool {
        let end = ContinuousClock.now + timeout
        while openConnections > 0 {
            guard ContinuousClock.now < end else { return false }
            usleep(200)
        }
        return true
    }

    /// Waits until the server has read every byte sent so far on `server` (its receive queue is
    /// empty) or the connection has closed: the next part then arrives in a read of its own.
    /// Bounded, for a connection that stopped reading (a full buffer waiting on its answer).
    private func waitUntilRead(_ server: Int32) {
        let end = ContinuousClock.now + .seconds(1)
        while ContinuousClock.now < end, openConnections > 0 {
            var queued: Int32 = 0
            guard ioctl(server, UInt(FIONREAD), &queued) == 0, queued > 0 else { return }
            usleep(20)
        }
    }
}
