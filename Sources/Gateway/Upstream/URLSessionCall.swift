import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One URLSession data task and why it was cancelled, if it was: the caller went away, or the
/// total timeout passed. Cancellation may come before the task exists; it then cancels it on start.
final class URLSessionCall: Sendable {
    /// Why a call was cancelled.
    enum CancelReason: Sendable {
        /// The calling task was cancelled.
        case cancelled
        /// The total timeout passed.
        case timedOut
    }

    private struct State {
        var task: URLSessionDataTask?
        var reason: CancelReason?
    }

    private let state = Mutex(State())

    /// The reason the call was cancelled, or `nil`.
    var cancelReason: CancelReason? { state.withLock { $0.reason } }

    /// Resumes `task` and arms the total timeout, unless the call was already cancelled.
    func start(_ task: URLSessionDataTask, totalTimeout: TimeInterval) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.reason != nil
        }
        if cancelled {
            task.cancel()
            return
        }
        task.resume()
        DispatchQueue.global().asyncAfter(deadline: .now() + totalTimeout) { [weak self] in
            self?.cancel(reason: .timedOut)
        }
    }

    /// Cancels the task for `reason`; the first reason wins.
    func cancel(reason: CancelReason) {
        let task: URLSessionDataTask? = state.withLock { state in
            guard state.reason == nil else { return nil }
            state.reason = reason
            return state.task
        }
        task?.cancel()
    }
}
