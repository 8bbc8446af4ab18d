import RDS
import Synchronization

/// One event of the ``EventHub``: a published read state, or write or delete process state, with
/// its id, rendered as a Server-Sent Event once, on first demand, and shared by every subscriber
/// that sends it.
final class HubEvent: Sendable {
    /// The position in the hub's sequence.
    let sequence: UInt64
    /// The resource whose state it is; `nil` for a control event.
    let key: ResourceKey?
    /// The write or delete process whose state it is; `nil` for a read state.
    let process: WriteKind?
    /// The bytes the event holds on to (the state's value), for the hub's replay budget.
    let cost: Int
    /// `true` for a transition event (`canceled`): sent in order, never replaced unread.
    let isTransition: Bool
    /// A state of work in progress (`loading`, a write `processing`): a subscriber that is behind
    /// keeps it beside the state that ends the work, so it never misses that the work happened.
    let isInProgress: Bool
    private let rendered = Mutex<[UInt8]?>(nil)
    private let render: @Sendable () -> [UInt8]

    /// An event whose bytes `render` makes when first asked.
    init(
        sequence: UInt64, key: ResourceKey?, process: WriteKind? = nil, cost: Int = 0, isTransition: Bool = false,
        isInProgress: Bool = false, render: @escaping @Sendable () -> [UInt8]
    ) {
        self.sequence = sequence
        self.key = key
        self.process = process
        self.cost = cost
        self.isTransition = isTransition
        self.isInProgress = isInProgress
        self.render = render
    }

    /// The rendered event (`id:`, `event:`, one `data:` line).
    var bytes: [UInt8] {
        rendered.withLock { rendered in
            if let rendered { return rendered }
            let bytes = render()
            rendered = bytes
            return bytes
        }
    }
}
