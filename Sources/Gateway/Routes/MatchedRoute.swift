/// A request matched to a repository route: the route with what its requests use, and the
/// resource key. ``GatewayRouter/respondImmediately(to:)`` leaves it in
/// ``HTTP1/HTTPRequest/handlerNote`` when it cannot answer at once, so ``GatewayRouter/handle(_:)``
/// does not match the path and build the key again. It belongs to one container: a router
/// serving another (after a reload) matches anew.
final class MatchedRoute: Sendable {
    /// The container whose route matched.
    let container: GatewayDependencyContainer
    /// The route that matched, with its repository, outbox and refresher.
    let resources: RouteResources
    /// The key of the request, before any secondary (`Vary`) keying.
    let key: ResourceKey
    /// The key's hit-for-pass mark as the fast path's look-up saw it (see ``RDS/Repository/cachedAnswer(for:passing:)``),
    /// so that the read does not look it up again.
    let passing: Bool?

    init(container: GatewayDependencyContainer, resources: RouteResources, key: ResourceKey, passing: Bool?) {
        self.container = container
        self.resources = resources
        self.key = key
        self.passing = passing
    }
}
