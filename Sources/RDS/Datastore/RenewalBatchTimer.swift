import Dispatch
import Synchronization

/// Starts the write of a ``FileDatastore``'s batch of renewals a moment after its first renewal:
/// one one-shot dispatch timer, made once and armed again for each batch, instead of a timer made,
/// registered and destroyed per batch (`asyncAfter`).
///
/// While armed it holds the work it runs (and so whatever the work holds, the datastore: a batch
/// is written even when the datastore is let go meanwhile, as with `asyncAfter`); once fired it
/// holds nothing. Cancelled when released.
final class RenewalBatchTimer: @unchecked Sendable {
    // @unchecked: `any DispatchSourceTimer` is not declared Sendable; dispatch sources are
    // thread-safe, and the work is read and written under `armed`'s lock only.
    private let timer: any DispatchSourceTimer
    /// The work to run when the timer fires; `nil` when not armed.
    private let armed = Mutex<(@Sendable () -> Void)?>(nil)

    /// A timer that runs its work on `queue`.
    init(queue: DispatchQueue) {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.activate()
    }

    deinit { timer.cancel() }

    /// Runs `work` on the queue `delay` from now, unless armed already (the work armed first
    /// then runs, once, at its own time).
    func arm(after delay: DispatchTimeInterval, _ work: @escaping @Sendable () -> Void) {
        let wasArmed = armed.withLock { armed in
            guard armed == nil else { return true }
            armed = work
            return false
        }
        if !wasArmed { timer.schedule(deadline: .now() + delay) }
    }

    private func fire() {
        let work = armed.withLock { armed in
            defer { armed = nil }
            return armed
        }
        work?()
    }
}
