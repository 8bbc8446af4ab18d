import Foundation

/// The process state of the last write (or delete) of one resource, published beside its
/// ``ResourceState`` and never folded into it, so consumers switching over read states are not
/// affected.
///
/// The element is what the caller asked to write (`nil` for a delete that carries nothing);
/// the reply is what the service answered.
public enum WriteState<Value: Sendable>: Sendable {
    /// Nothing has been written (or deleted) yet, or it was forgotten.
    case initial
    /// The write of `element` started at `since` and has not finished; `queued` when it waits in
    /// a durable outbox for the service to come back.
    case processing(element: Value?, since: Date, queued: Bool)
    /// The service accepted `element` at `at`, answering `reply`.
    case succeeded(element: Value?, reply: Value?, at: Date)
    /// The write of `element` failed at `at`; `error` is the whole chain.
    case failed(any Error, element: Value?, at: Date)

    /// The state's name: `initial`, `processing`, `succeeded` or `failed`.
    public var name: String {
        switch self {
        case .initial: "initial"
        case .processing: "processing"
        case .succeeded: "succeeded"
        case .failed: "failed"
        }
    }
}
