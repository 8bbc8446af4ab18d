import Foundation
import RDS

extension GatewayDependencyContainer {
    /// Builds a follower for each service with a `changes` stream; each applies the changes to
    /// the service's repositories as a webhook would, and revalidates their followed keys after
    /// a gap. Not started.
    func makeChangeFollowers() -> [UpstreamChangeFollower] {
        configuration.services.sorted { $0.key < $1.key }.compactMap { name, settings in
            guard let changes = settings.changes, let url = URL(string: changes.url) else { return nil }
            let repositories = routes.filter { $0.settings.service == name }.map(\.name)
            return UpstreamChangeFollower(
                service: name, url: url, logger: logger,
                apply: { [weak self] action, paths, tags in
                    await self?.applyChange(action, paths: paths, tags: tags, to: repositories)
                },
                resync: { [weak self] in
                    for repository in repositories { self?.refresher(named: repository)?.revalidateAll() }
                })
        }
    }

    /// Stops following the services' change streams.
    func stopChangeFollowers() {
        for follower in changeFollowers.withLock({ $0 }) { follower.stop() }
    }

    /// Applies one change from a service's stream to each of `repositories` (a path the route of
    /// one does not match is skipped for it).
    private func applyChange(_ action: ChangeAction, paths: [String], tags: [String], to repositories: [String]) async {
        let router = GatewayRouter(container: self)
        for name in repositories {
            guard let route = route(named: name), let repository = makeRepository(named: name) else { continue }
            let matching = paths.filter { route.key(forTarget: $0) != nil }
            guard case .success(let keys) = router.keys(paths: matching, tags: tags, route: route) else { continue }
            _ = try? await router.apply(action, to: keys, in: repository)
        }
    }
}
