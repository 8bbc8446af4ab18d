import RDS
import Synchronization

/// One Server-Sent Events subscriber of the ``EventHub``: the events it has not read yet, at most
/// two per resource and stream (read states; write process states; delete process states): the
/// newest state of work in progress (`loading`, `processing`) and, after it, the newest state that
/// ends work. A newer state replaces the unread older one of its kind, in its place (new work drops
/// the unread end of earlier work), never one of another stream, so a slow subscriber skips to the
/// newest state of each, never misses that a fetch or write happened, and holds a bounded backlog.
/// The HTTP server pulls each event when the client can take it (``next()``).
final class EventSubscriber: Sendable {
    /// A resource's read states, or one of its write processes.
    private struct Slot: Hashable {
        let key: ResourceKey
        let process: WriteKind?
        /// A state of work in progress waits in its own slot, before the state that ends the work.
        let inProgress: Bool
    }

    private struct State {
        var control: [[UInt8]] = []
        var order: [Slot] = []
        var head = 0
        var pending: [Slot: HubEvent] = [:]
        var pingDue = false
        var closed = false
        var waiter: CheckedContinuation<Void, Never>?

        mutating func popEvent() -> HubEvent? {
            while head < order.count {
                let slot = order[head]
                head += 1
                if head > 256 && head * 2 > order.count {
                    order.removeFirst(head)
                    head = 0
                }
                if let event = pending.removeValue(forKey: slot) { return event }
            }
            return nil
        }
    }

    /// The event telling a client that events were lost: refetch what it follows.
    static func refetch(id: String?, reason: String) -> [UInt8] {
        let idLine = id.map { "id: \($0)\n" } ?? ""
        return Array("\(idLine)event: refetch\ndata: {\"reason\":\"\(reason)\"}\n\n".utf8)
    }

    private let state = Mutex(State())
    /// The most resources with an unread event; past it the backlog is dropped for a `refetch`.
    let maxPending: Int

    /// Creates a subscriber whose backlog holds at most `maxPending` resources.
    init(maxPending: Int) { self.maxPending = max(1, maxPending) }

    /// Queues `event` for its resource and stream, replacing an unread older one; with `ifAbsent`,
    /// only when none is unread (a current state must not replace a newer event).
    func enqueue(_ event: HubEvent, ifAbsent: Bool = false) {
        guard let key = event.key else { return }
        guard !event.isTransition else { return enqueueControl(event.bytes) }
        let slot = Slot(key: key, process: event.process, inProgress: event.isInProgress)
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard !state.closed else { return nil }
            if event.isInProgress, !ifAbsent {
                // New work begins: the unread end of earlier work is superseded, place and all.
                let end = Slot(key: key, process: event.process, inProgress: false)
                if state.pending.removeValue(forKey: end) != nil,
                    let place = state.order[state.head...].firstIndex(of: end)
                {
                    state.order.remove(at: place)
                }
            }
            if state.pending[slot] != nil {
                if !ifAbsent { state.pending[slot] = event }
            } else if state.pending.count >= maxPending {
                state.pending.removeAll()
                state.order.removeAll()
                state.head = 0
                state.control.append(Self.refetch(id: nil, reason: "backlog"))
            } else {
                state.pending[slot] = event
                state.order.append(slot)
            }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Queues a control event (sent before any resource event): a `refetch`, a transition.
    func enqueueControl(_ bytes: [UInt8]) {
        wake { $0.control.append(bytes) }
    }

    /// Asks for a heartbeat comment when nothing else is unread.
    func ping() { wake { $0.pingDue = true } }

    /// Ends the subscription: ``next()`` returns `nil`.
    func close() { wake { $0.closed = true } }

    /// The next bytes to send, waiting (suspended) until there are some; `nil` once closed or
    /// when the reading task is cancelled.
    func next() async -> [UInt8]? {
        while true {
            switch take() {
            case .bytes(let bytes): return bytes
            case .closed: return nil
            case .empty: await withTaskCancellationHandler { await waitForWork() } onCancel: { close() }
            }
        }
    }

    private enum Taken {
        case bytes([UInt8])
        case closed
        case empty
    }

    private func take() -> Taken {
        let (taken, event): (Taken, HubEvent?) = state.withLock { state in
            if state.closed || Task.isCancelled { return (.closed, nil) }
            if !state.control.isEmpty { return (.bytes(state.control.removeFirst()), nil) }
            if let event = state.popEvent() { return (.empty, event) }
            if state.pingDue {
                state.pingDue = false
                return (.bytes(EventHub.ping), nil)
            }
            return (.empty, nil)
        }
        // An event is rendered outside the lock (once, shared with every other subscriber).
        if let event { return .bytes(event.bytes) }
        return taken
    }

    private func waitForWork() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready: Bool = state.withLock { state in
                if state.closed || !state.control.isEmpty || !state.pending.isEmpty || state.pingDue { return true }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func wake(_ change: (inout State) -> Void) {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            change(&state)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
