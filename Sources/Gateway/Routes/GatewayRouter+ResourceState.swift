import Foundation
import RDS

extension GatewayRouter {
    /// The admin state of `key`: the published state (a value only on disk is reported `loaded`,
    /// from the cache), plus `source` (`memory`, `disk` or `upstream`: where the value held now
    /// comes from), `expiresAt`, `nextRefreshAt` (when the background refresh runs next),
    /// `waiters` (callers waiting for the fetch under way) and the entry's `tags`.
    func stateReport(
        of key: ResourceKey, in repository: Repository<ResourceKey, Representation>, route: RepositoryRoute
    ) async -> [String: Any] {
        var state = repository.state(of: key)
        var entry = container.memoryLevels[route.name]?.peek(key)
        var source: String? = entry == nil ? nil : "memory"
        if entry == nil, let stored = try? await container.diskLevels[route.name]?.get(key) {
            entry = stored
            source = "disk"
        }
        if case .initialized = state, let entry { state = .loaded(entry.value, origin: .cache, at: entry.storedAt) }
        if case .loaded(_, let origin, _) = state, origin != .cache { source = "upstream" }
        var object = ResourceStateJSON.object(state)
        object["key"] = key.description
        object["source"] = source ?? NSNull()
        object["expiresAt"] = entry.map { $0.expiresAt.formatted(.iso8601) as Any } ?? NSNull()
        object["nextRefreshAt"] =
            container.refresher(named: route.name)?.nextRefresh(of: key).map { $0.formatted(.iso8601) as Any }
            ?? NSNull()
        object["waiters"] = repository.store.waiterCount(for: key)
        object["tags"] = entry.map { TagField.tags(in: $0.value, field: route.settings.tags.field) } ?? []
        for kind in WriteKind.allCases {
            object[kind.rawValue] = WriteStateJSON.object(repository.writeState(kind, of: key))
        }
        return object
    }
}
