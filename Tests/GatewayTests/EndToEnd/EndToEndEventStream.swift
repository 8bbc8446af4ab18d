import Foundation
import Glibc
import HTTP1
import Synchronization

/// A Server-Sent Events subscription in a test: reads the raw (chunked) stream on its own thread
/// and collects the `event:` names and `data:` lines as they arrive.
final class EndToEndEventStream: Sendable {
    /// One received event.
    struct Event: Sendable, Equatable {
        let name: String
        let data: String
        /// The event's `id:`, if it had one.
        var id: String?
    }

    private let descriptor: Int32
    private let state = Mutex<
        (text: String, waiters: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)], closed: Bool)
    >(("", [], false))
    private let nextWaiter = Atomic<Int>(0)
    /// How long a wait lasts before it gives up (the test's expectations then fail instead of hanging).
    private static let patience: Duration = .seconds(20)

    /// Subscribes to `target` on the gateway at `port`.
    init(_ target: String, port: Int, headers: HTTPHeaders = [:]) throws {
        var headers = headers
        headers["Accept"] = "text/event-stream"
        descriptor = try EndToEndClient.connect(.get, target, port: port, headers: headers, body: "")
        let descriptor = descriptor
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 8_192)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                append(String(decoding: buffer[..<count], as: UTF8.self))
            }
            finish()
        }
    }

    /// The events so far.
    var events: [Event] {
        let text = state.withLock { $0.text }
        var events: [Event] = []
        var name: String?
        var id: String?
        for line in text.split(separator: "\r\n").flatMap({ $0.split(separator: "\n") }) {
            if line.hasPrefix("id: ") {
                id = String(line.dropFirst(4))
            } else if line.hasPrefix("event: ") {
                name = String(line.dropFirst(7))
            } else if line.hasPrefix("data: "), let current = name {
                events.append(Event(name: current, data: String(line.dropFirst(6)), id: id))
                name = nil
                id = nil
            }
        }
        return events
    }

    /// The event names so far.
    var names: [String] { events.map(\.name) }

    /// Returns once `count` events have arrived (or the stream closed, or ``patience`` passed).
    func waitForEvents(_ count: Int) async {
        let id = nextWaiter.wrappingAdd(1, ordering: .relaxed).oldValue
        await withCheckedContinuation { continuation in
            state.withLock { $0.waiters.append((id, count, continuation)) }
            resumeDue()
            Task { [weak self] in
                try? await Task.sleep(for: Self.patience)
                self?.giveUp(waiter: id)
            }
        }
    }

    /// Returns once the newest event satisfies `condition` (a slow reader may skip states, so
    /// tests of live changes wait for the state they expect rather than for a count), or once
    /// ``patience`` has passed without it.
    func waitForLast(_ condition: (Event) -> Bool) async {
        let deadline = ContinuousClock.now + Self.patience
        var seen = events.count
        while !(events.last.map(condition) ?? false), ContinuousClock.now < deadline {
            seen += 1
            await waitForEvents(seen)
            seen = events.count
        }
    }

    /// Closes the subscription.
    func close() { shutdown(descriptor, Int32(SHUT_RDWR)) }

    deinit { Glibc.close(descriptor) }

    private func append(_ text: String) {
        state.withLock { $0.text += text }
        resumeDue()
    }

    private func finish() {
        state.withLock { $0.closed = true }
        resumeDue()
    }

    private func giveUp(waiter id: Int) {
        let due = state.withLock { state in
            defer { state.waiters.removeAll { $0.id == id } }
            return state.waiters.filter { $0.id == id }
        }
        due.forEach { $0.continuation.resume() }
    }

    private func resumeDue() {
        let current = events.count
        let due = state.withLock { state in
            let due = state.waiters.filter { $0.count <= current || state.closed }
            state.waiters.removeAll { $0.count <= current || state.closed }
            return due
        }
        due.forEach { $0.continuation.resume() }
    }
}
