import RDS

/// What a configuration reload changed: repositories added, removed, rebuilt and kept (with
/// their caches), and the sections that only a restart applies.
public struct ReloadReport: Sendable, Equatable {
    /// Where the configuration was read from.
    public var source: String
    /// Repositories that are new.
    public var added: [String]
    /// Repositories that are gone.
    public var removed: [String]
    /// Repositories rebuilt because their settings or their service's changed (their cache starts empty).
    public var changed: [String]
    /// Repositories taken over unchanged: their cache, subscribers and fetches carry on.
    public var kept: [String]
    /// Sections whose changes were not applied (`server`, `cache`, `logging`): a restart applies them.
    public var restartRequired: [String]

    /// Creates a report.
    public init(
        source: String, added: [String], removed: [String], changed: [String], kept: [String],
        restartRequired: [String]
    ) {
        self.source = source
        self.added = added
        self.removed = removed
        self.changed = changed
        self.kept = kept
        self.restartRequired = restartRequired
    }

    /// The report as a JSON object (the answer of `POST /admin/reload`).
    public var jsonObject: [String: Any] {
        [
            "status": "reloaded", "config": source, "added": added, "removed": removed, "changed": changed,
            "kept": kept, "restartRequired": restartRequired,
        ]
    }

    /// The report as log fields (names joined by commas).
    public var logFields: [String: LogValue] {
        [
            "config": .string(source), "added": .string(added.joined(separator: ",")),
            "removed": .string(removed.joined(separator: ",")), "changed": .string(changed.joined(separator: ",")),
            "kept": .string(kept.joined(separator: ",")),
            "restart_required": .string(restartRequired.joined(separator: ",")),
        ]
    }
}
