import Foundation

/// When a fetch must have ended, as a ``Service`` is given it.
///
/// A service that ends its own calls by ``date`` (its transport's total timeout, say) passes it
/// down and costs nothing more; any other races its call against the date with ``race(_:)``, the
/// default of ``Service/get(_:ifChangedFrom:within:)``.
public struct FetchDeadline: Sendable {
    /// Thrown when the deadline passes before the call ends.
    public struct Exceeded: Error {
        /// Creates the error.
        public init() {}
    }

    /// The instant on the repository's clock by which the call must have ended.
    public let date: Date
    /// The timers that run ``race(_:)``'s deadline (the repository store's).
    let timers: RefreshScheduler

    /// A deadline at `date` on the clock of `timers`, which run ``race(_:)``'s deadline.
    public init(date: Date, timers: RefreshScheduler) {
        self.date = date
        self.timers = timers
    }

    /// Returns `operation`'s output, or throws ``Exceeded`` at ``date`` even when the operation
    /// ignores cancellation: it runs in a task of its own (on ``TaskPlacement/preferredExecutor``),
    /// cancelled when the date passes first.
    /// - Throws: The operation's error, ``Exceeded``, or `CancellationError` when the caller is cancelled.
    public func race<Output: Sendable>(_ operation: @escaping @Sendable () async throws -> Output) async throws
        -> Output
    {
        do {
            return try await DeadlineRace.run(until: date, on: timers, operation)
        } catch is DeadlineRace<Output>.Exceeded {
            throw Exceeded()
        }
    }
}
