import RDS

/// A request matched to a repository route: the route, the resource key and the repository.
/// ``GatewayRouter/respondImmediately(to:)`` leaves it in ``HTTP1/HTTPRequest/handlerNote`` when
/// it cannot answer at once, so ``GatewayRouter/handle(_:)`` does not match the path and build the
/// key again. It belongs to one container: a router serving another (after a reload) matches anew.
final class MatchedRoute: Sendable {
    /// The container whose route matched.
    let container: GatewayDependencyContainer
    /// The route that matched.
    let route: RepositoryRoute
    /// The key of the request, before any secondary (`Vary`) keying.
    let key: ResourceKey
    /// The route's repository.
    let repository: Repository<ResourceKey, Representation>

    init(
        container: GatewayDependencyContainer, route: RepositoryRoute, key: ResourceKey,
        repository: Repository<ResourceKey, Representation>
    ) {
        self.container = container
        self.route = route
        self.key = key
        self.repository = repository
    }
}
