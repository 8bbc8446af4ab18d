import RDS

/// A route's repository behind a reference (see ``RouteResources/held``): a method called on
/// a repository stored in this class's constant is called where it lies, while one stored as an
/// optional in ``RouteResources`` was copied for the call and the copy destroyed through the
/// runtime's generic witnesses (~590 instructions per cache hit).
final class HeldRepository: Sendable {
    /// The repository.
    let repository: Repository<ResourceKey, Representation>

    init(_ repository: Repository<ResourceKey, Representation>) {
        self.repository = repository
    }
}
