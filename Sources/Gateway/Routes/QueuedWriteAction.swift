import HTTP1

/// What an admin request does to a repository's outbox (`…/writes`).
enum QueuedWriteAction: CaseIterable, Sendable {
    /// `GET …/writes`: every pending write and dead letter.
    case list
    /// `GET …/writes/{id}`: one queued write.
    case show
    /// `POST …/writes/{id}/retry`: send a dead letter back to the queue.
    case retry
    /// `DELETE …/writes/{id}`: discard a pending write or a dead letter.
    case discard

    /// The one method the action answers.
    var method: HTTPMethod {
        switch self {
        case .list, .show: .get
        case .retry: .post
        case .discard: .delete
        }
    }

    /// The path after `/admin/repositories/{name}`.
    var suffix: String {
        switch self {
        case .list: "/writes"
        case .show, .discard: "/writes/{id}"
        case .retry: "/writes/{id}/retry"
        }
    }
}
