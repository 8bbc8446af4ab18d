import Foundation
import RDS
import Synchronization

/// Every published state of every repository, numbered, kept in a bounded replay buffer, and
/// delivered to the Server-Sent Events subscribers whose topics match: per-resource streams
/// (`Accept: text/event-stream` on a route) and `/events?topic=…` streams alike. Until an event
/// id has been handed out (to a subscriber, or by ``lastEventID``), nobody can resume, so events
/// are numbered but neither made nor kept: a process nobody subscribes to pays nothing per state.
///
/// Each event has an id `<boot>-<n>` (`boot` names this process, so an id from before a restart
/// is never mistaken for a recent one). A subscriber resuming with `Last-Event-ID` gets the
/// events it missed from the buffer; when they are gone (or the id is foreign), it gets a
/// `refetch` event, then the current states, never a silent gap. Subscribers pull events as their
/// client takes them (``EventSubscriber``); each event is rendered once however many send it.
/// The states of a followed resource are also subscribed to in its repository (one stream per
/// resource, held without a task), so its refresh policy sees it as subscribed.
final class EventHub: Sendable {
    /// The heartbeat comment.
    static let ping: [UInt8] = Array(": ping\n\n".utf8)
    /// The reconnection delay sent first to every subscriber.
    static let retry: [UInt8] = Array("retry: 3000\n\n".utf8)

    private struct Hub {
        var ring: [HubEvent] = []
        var ringStart = 0
        var ringCost = 0
        var sequence: UInt64 = 0
        var subscribers: [UInt64: (subscriber: EventSubscriber, topics: [EventTopic])] = [:]
        var byKey: [ResourceKey: Set<UInt64>] = [:]
        var byRepository: [String: Set<UInt64>] = [:]
        /// The newest event of each resource some subscriber follows by path.
        var current: [ResourceKey: HubEvent] = [:]
        /// The repository subscriptions held for followed resources, with their follower counts.
        var holds: [ResourceKey: (count: Int, states: AsyncStream<ResourceState<Representation>>)] = [:]
        var nextID: UInt64 = 0
        /// The resources whose states went unpublished since nobody followed them.
        var unrecorded = UnrecordedStates(capacity: 4_096)
        /// Whether an event id of this process has been handed out: only then are events kept.
        var idsHandedOut = false

        /// Keeps events from now on, if not yet: the ones numbered so far count as forgotten.
        mutating func handOutIDs() {
            guard !idsHandedOut else { return }
            idsHandedOut = true
            forgottenThrough = sequence
        }

        /// The newest event number not kept: dropped from the ring, or numbered before any id was
        /// handed out. A resume from it or later has every event after its id at hand.
        var forgottenThrough: UInt64 = 0
    }

    private let hub = Mutex(Hub())
    private let paths = Mutex<@Sendable (ResourceKey) -> String>({ $0.target })
    /// Names this process's event ids.
    let boot: String
    /// The most events kept for replay.
    let maxEvents: Int
    /// The most value bytes the replay buffer holds on to.
    let maxEventBytes: Int
    /// The most resources with unread events per subscriber.
    let maxPending: Int

    /// Creates an empty hub.
    init(maxEvents: Int = 4_096, maxEventBytes: Int = 64 << 20, maxPending: Int = 4_096) {
        self.boot = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        self.maxEvents = max(1, maxEvents)
        self.maxEventBytes = maxEventBytes
        self.maxPending = maxPending
    }

    /// The number of subscribers.
    var subscriberCount: Int { hub.withLock { $0.subscribers.count } }

    /// The number of events kept for replay.
    var bufferedCount: Int { hub.withLock { $0.ring.count - $0.ringStart } }

    /// The id of the newest event; from now on events are kept for replay (see ``EventHub``).
    var lastEventID: String {
        let sequence = hub.withLock { hub in
            hub.handOutIDs()
            return hub.sequence
        }
        return "\(boot)-\(sequence)"
    }

    /// Sets how a key is shown as a client path in events (the routes of the configuration).
    func showPaths(_ resolve: @escaping @Sendable (ResourceKey) -> String) { paths.withLock { $0 = resolve } }

    /// Records one published state and hands it to the subscribers following its resource or
    /// repository. Called by the repositories' broadcaster registries, under their locks.
    func publish(_ key: ResourceKey, _ state: ResourceState<Representation>) {
        hub.withLock { hub in
            hub.sequence += 1
            guard hub.idsHandedOut else { return }
            record(makeEvent(hub.sequence, key, state), in: &hub)
        }
    }

    /// Whether some subscriber follows `key`, by its path or its repository. When none does, the
    /// caller may skip publishing states of `key` (a hit-for-pass read): the hub then numbers the
    /// skipped states as one event that is never sent, so that a subscriber resuming with
    /// `Last-Event-ID` from before it gets a `refetch` instead of a silent gap.
    func follows(_ key: ResourceKey) -> Bool {
        hub.withLock { hub in
            // Empty tables are not searched: a lookup hashes the key first.
            if !hub.byKey.isEmpty, hub.byKey[key] != nil { return true }
            if !hub.byRepository.isEmpty, hub.byRepository[key.repository] != nil { return true }
            hub.sequence += 1
            // Before any id is handed out nobody can resume from before this state (see `handOutIDs()`).
            if hub.idsHandedOut { hub.unrecorded.note(key, at: hub.sequence) }
            return false
        }
    }

    /// Records one write or delete process state (`event: write`, `event: delete`) and hands it
    /// to the subscribers following its resource or repository; it never displaces an unread read
    /// state. Called by the repositories' write state registries, under their locks.
    func publish(_ key: ResourceKey, _ change: WriteEvent<Representation>) {
        hub.withLock { hub in
            hub.sequence += 1
            guard hub.idsHandedOut else { return }
            record(makeEvent(hub.sequence, key, change), in: &hub)
        }
    }

    /// Records one transition event (`canceled`) and hands it to the subscribers of its resource
    /// or repository, before the state that follows it.
    func announce(_ key: ResourceKey, _ transition: TransitionEvent) {
        let resolve = paths.withLock { $0 }
        hub.withLock { hub in
            hub.sequence += 1
            guard hub.idsHandedOut else { return }
            let id = "\(boot)-\(hub.sequence)"
            let event = HubEvent(sequence: hub.sequence, key: key, isTransition: true) {
                Self.render(id: id, event: transition.rawValue, ["path": resolve(key), "repository": key.repository])
            }
            record(event, in: &hub)
        }
    }

    private func record(_ event: HubEvent, in hub: inout Hub) {
        guard let key = event.key else { return }
        hub.ring.append(event)
        hub.ringCost += event.cost
        while hub.ring.count - hub.ringStart > maxEvents || (hub.ringCost > maxEventBytes && hub.ringStart < hub.ring.count - 1) {
            hub.ringCost -= hub.ring[hub.ringStart].cost
            hub.forgottenThrough = hub.ring[hub.ringStart].sequence
            hub.ringStart += 1
        }
        if hub.ringStart > 1_024 && hub.ringStart * 2 > hub.ring.count {
            hub.ring.removeFirst(hub.ringStart)
            hub.ringStart = 0
        }
        let byKey = hub.byKey[key] ?? []
        if !byKey.isEmpty && event.process == nil && !event.isTransition { hub.current[key] = event }
        for id in byKey.union(hub.byRepository[key.repository] ?? []) {
            hub.subscribers[id]?.subscriber.enqueue(event)
        }
    }

    /// Asks every subscriber for a heartbeat comment.
    func heartbeat() {
        let subscribers = hub.withLock { $0.subscribers.values.map(\.subscriber) }
        for subscriber in subscribers { subscriber.ping() }
    }

    /// A subscription to `topics`: `retry:`, then (resuming from `lastEventID` when the buffer
    /// still holds what followed it) the missed events, else a `refetch` event when an id was
    /// given, then the current state of each followed resource and its write and delete process
    /// states that are not `initial`; then each new event.
    /// - Parameters:
    ///   - follow: Subscribes to a resource in its repository and gives its current state.
    ///   - processes: The current write and delete process states of a resource.
    func subscribe(
        to topics: [EventTopic], lastEventID: String?,
        follow: (ResourceKey) -> (states: AsyncStream<ResourceState<Representation>>, current: ResourceState<Representation>),
        processes: (ResourceKey) -> [WriteEvent<Representation>] = { _ in [] }
    ) -> AsyncStream<[UInt8]> {
        let subscriber = EventSubscriber(maxPending: maxPending)
        subscriber.enqueueControl(Self.retry)
        let keys = topics.compactMap { topic -> ResourceKey? in
            if case .resource(let key) = topic { return key }
            return nil
        }
        let repositories = Set(topics.compactMap { topic -> String? in
            if case .repository(let name) = topic { return name }
            return nil
        })
        let (id, head, resumed): (UInt64, UInt64, Bool) = hub.withLock { hub in
            hub.nextID += 1
            hub.handOutIDs()
            hub.subscribers[hub.nextID] = (subscriber, topics)
            for key in keys { hub.byKey[key, default: []].insert(hub.nextID) }
            for name in repositories { hub.byRepository[name, default: []].insert(hub.nextID) }
            let resumed = replay(after: lastEventID, keys: Set(keys), repositories: repositories, to: subscriber, in: hub)
            return (hub.nextID, hub.sequence, resumed)
        }
        if lastEventID != nil && !resumed {
            subscriber.enqueueControl(EventSubscriber.refetch(id: "\(boot)-\(head)", reason: "gap"))
        }
        let followed = keys.map { ($0, follow($0)) }
        let written = currentProcesses(keys, processes)
        let released: [AsyncStream<ResourceState<Representation>>] = hub.withLock { hub in
            var released: [AsyncStream<ResourceState<Representation>>] = []
            for (key, (states, current)) in followed {
                if let held = hub.holds[key] {
                    hub.holds[key]?.count = held.count + 1
                    released.append(states)
                } else {
                    hub.holds[key] = (1, states)
                }
                guard !resumed else { continue }
                let event: HubEvent
                if let newest = hub.current[key] {
                    event = newest
                } else {
                    event = makeEvent(head, key, current)
                    hub.current[key] = event
                }
                subscriber.enqueue(event, ifAbsent: true)
                for change in written[key] ?? [] {
                    subscriber.enqueue(makeEvent(head, key, change), ifAbsent: true)
                }
            }
            return released
        }
        // A resource already held keeps its first subscription; the extra ones end here, outside the lock.
        _ = released
        let lease = Lease { [weak self] in self?.leave(id) }
        return AsyncStream(unfolding: { await lease.next(subscriber) }, onCancel: { subscriber.close() })
    }

    /// Releases a subscriber's registrations once its stream is gone.
    private final class Lease: Sendable {
        let release: @Sendable () -> Void
        init(_ release: @escaping @Sendable () -> Void) { self.release = release }
        func next(_ subscriber: EventSubscriber) async -> [UInt8]? { await subscriber.next() }
        deinit { release() }
    }

    /// Queues the buffered events after `lastEventID` that `subscriber` follows; `false` when
    /// there is no id, it is foreign, or events after it are gone.
    private func replay(
        after lastEventID: String?, keys: Set<ResourceKey>, repositories: Set<String>, to subscriber: EventSubscriber,
        in hub: Hub
    ) -> Bool {
        guard let lastEventID, let dash = lastEventID.lastIndex(of: "-"), lastEventID[..<dash] == boot,
            let seen = UInt64(lastEventID[lastEventID.index(after: dash)...]), seen <= hub.sequence
        else { return false }
        guard seen >= hub.forgottenThrough else { return false }
        guard !hub.unrecorded.missed(after: seen, keys: keys, repositories: repositories) else { return false }
        for event in hub.ring[hub.ringStart...] where event.sequence > seen {
            guard let key = event.key, keys.contains(key) || repositories.contains(key.repository) else { continue }
            subscriber.enqueue(event)
        }
        return true
    }

    private func leave(_ id: UInt64) {
        let released: [AsyncStream<ResourceState<Representation>>] = hub.withLock { hub in
            guard let (subscriber, topics) = hub.subscribers.removeValue(forKey: id) else { return [] }
            subscriber.close()
            var released: [AsyncStream<ResourceState<Representation>>] = []
            for topic in topics {
                switch topic {
                case .repository(let name):
                    hub.byRepository[name]?.remove(id)
                    if hub.byRepository[name]?.isEmpty == true { hub.byRepository[name] = nil }
                case .resource(let key):
                    hub.byKey[key]?.remove(id)
                    if hub.byKey[key]?.isEmpty == true {
                        hub.byKey[key] = nil
                        hub.current[key] = nil
                    }
                    guard let held = hub.holds[key] else { continue }
                    if held.count > 1 {
                        hub.holds[key]?.count = held.count - 1
                    } else {
                        hub.holds[key] = nil
                        released.append(held.states)
                    }
                }
            }
            return released
        }
        // The repository subscriptions end here, outside the hub's lock.
        // A resource already held keeps its first subscription; the extra ones end here, outside the lock.
        _ = released
    }

    private func currentProcesses(
        _ keys: [ResourceKey], _ processes: (ResourceKey) -> [WriteEvent<Representation>]
    ) -> [ResourceKey: [WriteEvent<Representation>]] {
        var written: [ResourceKey: [WriteEvent<Representation>]] = [:]
        for key in keys {
            let changes = processes(key).filter { if case .initial = $0.state { false } else { true } }
            if !changes.isEmpty { written[key] = changes }
        }
        return written
    }

    private func makeEvent(_ sequence: UInt64, _ key: ResourceKey, _ change: WriteEvent<Representation>) -> HubEvent {
        let boot = boot
        let resolve = paths.withLock { $0 }
        let inProgress = if case .processing = change.state { true } else { false }
        return HubEvent(sequence: sequence, key: key, process: change.kind, cost: 512, isInProgress: inProgress) {
            var object = WriteStateJSON.object(change.state)
            object["path"] = resolve(key)
            object["repository"] = key.repository
            return Self.render(id: "\(boot)-\(sequence)", event: change.kind.rawValue, object)
        }
    }

    private static func render(id: String, event: String, _ object: [String: Any]) -> [UInt8] {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            .map(Array.init) ?? Array(#"{"state":"unencodable"}"#.utf8)
        return Array("id: \(id)\nevent: \(event)\ndata: ".utf8) + data + Array("\n\n".utf8)
    }

    private func makeEvent(_ sequence: UInt64, _ key: ResourceKey, _ state: ResourceState<Representation>) -> HubEvent {
        let cost: Int
        switch state {
        case .loaded(let value, _, _): cost = value.byteCount
        case .loading(let value?), .failed(_, let value?): cost = value.byteCount
        default: cost = 64
        }
        // The id becomes text only when the event is rendered (most never are: nobody follows their key).
        let boot = boot
        let resolve = paths.withLock { $0 }
        let inProgress = if case .loading = state { true } else { false }
        return HubEvent(sequence: sequence, key: key, cost: cost, isInProgress: inProgress) {
            var object = ResourceStateJSON.object(state)
            object["path"] = resolve(key)
            object["repository"] = key.repository
            return Self.render(id: "\(boot)-\(sequence)", event: ResourceStateJSON.name(of: state), object)
        }
    }
}
