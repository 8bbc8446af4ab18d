import Foundation
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

    /// Indexes the tags of the entries the disk level of `name` holds (in the background): the
    /// tags are stored with the entries, so purges by tag reach them after a restart.
    func rebuildTagIndex(_ name: String) {
        guard let level2 = diskLevels[name], let index = tagIndexes[name], let route = route(named: name) else { return }
        let field = route.settings.tags.field
        Task {
            await level2.forEachStoredEntry(limit: index.maxEntries) { key, entry in
                if index.tags(of: key) == nil { index.set(TagField.tags(in: entry.value, field: field), for: key) }
            }
        }
    }

    /// Asks every Server-Sent Events subscriber for a heartbeat comment every `interval` seconds,
    /// on the process's scheduler, so idle proxies keep the streams open.
    static func beat(_ events: EventHub, on scheduler: RefreshScheduler, every interval: TimeInterval) {
        scheduler.schedule(at: scheduler.clock.now.addingTimeInterval(interval)) {
            events.heartbeat()
            beat(events, on: scheduler, every: interval)
        }
    }

    /// Stops the refreshers this container does not hand on to `successor` (all of them, and the
    /// process's scheduler, without one).
    public func retireRefreshers(replacedBy successor: GatewayDependencyContainer? = nil) {
        for (name, refresher) in refreshers where successor?.refreshers[name] !== refresher {
            refresher.stop()
        }
        stopChangeFollowers()
        if successor == nil { scheduler.stop() }
    }
}
