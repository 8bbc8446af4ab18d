import RDS

/// What a request on one repository route needs of its container, found with the route when
/// the path matches (``GatewayDependencyContainer/routeTable``) instead of looked up by the
/// repository's name on every request: the repository, its write outbox and its refresher.
final class RouteResources: Sendable {
    /// The route.
    let route: RepositoryRoute
    /// The route's repository.
    let repository: Repository<ResourceKey, Representation>?
    /// The repository's durable outbox, when it queues writes.
    let outbox: WriteOutbox?
    /// The repository's background refresher, when it has `refresh` settings.
    let refresher: BackgroundRefresher<ResourceKey, Representation>?
    /// The route's loop-native pass-through, when its repository's service allows one.
    let loopPassThrough: LoopPassThrough?

    init(
        route: RepositoryRoute, repository: Repository<ResourceKey, Representation>?, outbox: WriteOutbox?,
        refresher: BackgroundRefresher<ResourceKey, Representation>?
    ) {
        self.route = route
        self.repository = repository
        self.outbox = outbox
        self.refresher = refresher
        loopPassThrough = LoopPassThrough(route: route, repository: repository, refresher: refresher)
    }
}
