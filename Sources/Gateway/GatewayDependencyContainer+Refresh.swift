import RDS

extension GatewayDependencyContainer {
    /// The background refresher of the repository `name`, when it has `refresh` settings.
    public func refresher(named name: String) -> BackgroundRefresher<ResourceKey, Representation>? {
        refreshers[name]
    }

    /// Follows the warm-up keys of the repository `name` when its refresh settings name them.
    func followWarmUp(_ name: String) {
        guard let refresher = refreshers[name], let route = route(named: name) else { return }
        refresher.followWarmUp(route.settings.warmUp.compactMap { route.key(forTarget: $0) })
    }

    /// Stops the refreshers this container does not hand on to `successor` (all of them, and the
    /// process's scheduler, without one).
    public func retireRefreshers(replacedBy successor: GatewayDependencyContainer? = nil) {
        for (name, refresher) in refreshers where successor?.refreshers[name] !== refresher {
            refresher.stop()
        }
        if successor == nil { scheduler.stop() }
    }
}
