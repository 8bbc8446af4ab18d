/// What one `/events` subscription follows.
enum EventTopic: Hashable, Sendable {
    /// One resource (a concrete path such as `/weather/paris`).
    case resource(ResourceKey)
    /// Every resource of a repository (its route template, such as `/weather/{city}`).
    case repository(String)
}
