import Foundation
import HTTP1
import RDS

extension GatewayRouter {
    /// The keys named by `paths` (each with its known variants) and by `tags`, in a stable order.
    /// - Returns: The keys, or the first path the route does not match.
    func keys(paths: [String], tags: [String], route: RepositoryRoute) -> Result<[ResourceKey], GatewayError> {
        var keys: [ResourceKey] = []
        var seen = Set<ResourceKey>()
        for path in paths {
            guard let key = route.key(forTarget: path) else {
                return .failure(GatewayError(.badRequest, "The path \(path) does not match the route \(route.template)"))
            }
            for variant in [key] + route.variants.variants(of: key) where seen.insert(variant).inserted {
                keys.append(variant)
            }
        }
        let index = container.tagIndexes[route.name]
        for tag in tags {
            let tagged = (index?.keys(taggedWith: tag) ?? []).sorted { $0.description < $1.description }
            for key in tagged where seen.insert(key).inserted { keys.append(key) }
        }
        return .success(keys)
    }

    /// Adds to the repository's tag index the keys any replica stored with `tags` (the shared
    /// level's tag sets), so a purge by tag here reaches resources only other replicas have read.
    func learnSharedTags(_ tags: [String], route: RepositoryRoute) async {
        guard let shared = container.sharedLevels[route.name], let index = container.tagIndexes[route.name] else { return }
        for tag in tags {
            for key in await shared.keys(taggedWith: tag) where index.tags(of: key)?.contains(tag) != true {
                index.set((index.tags(of: key) ?? []) + [tag], for: key)
            }
        }
    }

    /// Applies `action` to every key and returns how many resources it affected: refreshes
    /// started, resources invalidated, stored values marked stale (a key with nothing stored is
    /// not counted for a soft purge).
    /// - Throws: ``RepositoryError`` when the datastore refuses a purge.
    func apply(
        _ action: ChangeAction, to keys: [ResourceKey], in repository: Repository<ResourceKey, Representation>
    ) async throws -> Int {
        var affected = 0
        for key in keys {
            switch action {
            case .refresh:
                repository.refreshInBackground(key)
                affected += 1
            case .invalidate:
                try await repository.purge(key)
                affected += 1
            case .softPurge:
                if try await repository.softPurge(key) { affected += 1 }
            }
        }
        container.metrics.hooks.recordAffected(affected, repository: repository.name, action: action.rawValue)
        return affected
    }
}
