import Glibc
import Sockets

/// The client end of an `HTTPConnectionHarness` connection: blocking sends, and reads of whole
/// answers (parsed by `HTTPResponseParser`) that give up after a timeout.
struct HTTPHarnessReader {
    private let socket: Socket
    private let timeout: Duration
    private var received: [UInt8] = []
    private var isAtEnd = false

    /// A reader of `socket` (non-blocking) whose every wait gives up after `timeout`.
    init(socket: Socket, timeout: Duration) {
        self.socket = socket
        self.timeout = timeout
    }

    /// Sends every byte; `false` when the server is gone.
    mutating func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            switch bytes.withUnsafeBytes({ socket.send(UnsafeRawBufferPointer(rebasing: $0[offset...])) }) {
            case .sent(let count): offset += count
            case .wouldBlock: guard wait(for: Int16(POLLOUT)) else { return false }
            case .failed: return false
            }
        }
        return true
    }

    /// Reads one answer per method in `methods` (interim 1xx skipped), then, when `untilClose`,
    /// on until the server closes; stops early at the end of the stream or after a timeout.
    mutating func readAnswers(methods: [HTTPMethod], untilClose: Bool) -> HTTPConnectionHarness.Outcome {
        var outcome = HTTPConnectionHarness.Outcome()
        var offset = 0
        var parser = HTTPResponseParser(requestMethod: methods.first ?? .get)
        while outcome.answers.count < methods.count {
            let result = received.withUnsafeBytes {
                parser.parse(UnsafeRawBufferPointer(rebasing: $0[offset...]), endOfStream: isAtEnd)
            }
            switch result {
            case .complete(let response, let consumed):
                offset += consumed
                guard response.status >= 200 else { continue }
                outcome.answers.append(HTTPConnectionHarness.Answer(status: response.status, body: Self.text(response)))
                let next = outcome.answers.count < methods.count ? methods[outcome.answers.count] : .get
                parser = HTTPResponseParser(requestMethod: next)
            case .incomplete where !isAtEnd:
                guard readMore() else { return finish(outcome, offset: offset) }
            case .incomplete, .invalid:
                return finish(outcome, offset: offset)
            }
        }
        while untilClose, !isAtEnd, readMore() {}
        return finish(outcome, offset: offset)
    }

    private func finish(_ outcome: HTTPConnectionHarness.Outcome, offset: Int) -> HTTPConnectionHarness.Outcome {
        var outcome = outcome
        outcome.serverClosed = isAtEnd
        outcome.trailingBytes = received.count - offset
        return outcome
    }

    /// Reads what arrives; `false` after a timeout (or at the end, which sets `isAtEnd`).
    private mutating func readMore() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let result = chunk.withUnsafeMutableBytes { socket.read(into: $0) }
            switch result {
            case .bytes(let count):
                received.append(contentsOf: chunk[..<count])
                return true
            case .wouldBlock:
                guard wait(for: Int16(POLLIN)) else { return false }
            case .closed, .failed:
                isAtEnd = true
                return false
            }
        }
    }

    /// Waits until the socket is ready for `events`; `false` after the timeout. A signal
    /// (libFuzzer's once-a-second alarm) interrupting the wait is not a timeout.
    private func wait(for events: Int16) -> Bool {
        let end = ContinuousClock.now + timeout
        while true {
            var descriptor = pollfd(fd: socket.fd, events: events, revents: 0)
            let left = ContinuousClock.now.duration(to: end)
            guard left > .zero else { return false }
            let milliseconds = Int32(left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000)
            let ready = poll(&descriptor, 1, max(milliseconds, 1))
            if ready > 0 { return true }
            if ready == 0 || errno != EINTR { return false }
        }
    }

    private static func text(_ response: HTTPResponse) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }
}
