import HTTP1

/// What an admin request does to a repository's resources, named by the last path segment.
enum AdminResourceAction: String, CaseIterable, Sendable {
    /// `GET …/state?path=`: the resource's state, with its variants.
    case state
    /// `POST …/refresh?path=[&wait=false]`: fetch the resource and its variants again.
    case refresh
    /// `DELETE …/cache[?path=|?tag=][&soft=true]`: purge one resource (all its variants), the
    /// resources carrying a tag, or the whole repository.
    case cache
    /// `DELETE …/fetch?path=`: cancel the fetch of a resource (and its variants) under way.
    case fetch

    /// The one method the action answers.
    var method: HTTPMethod {
        switch self {
        case .state: .get
        case .refresh: .post
        case .cache, .fetch: .delete
        }
    }
}
