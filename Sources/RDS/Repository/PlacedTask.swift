/// A task a repository started for a read (its fetch), as the read's ``TaskPlacementScope``
/// placed it: what cancels it.
public protocol PlacedTask: Sendable {
    /// Cancels the task's work; callable from any thread.
    func cancel()
}

extension Task: PlacedTask where Success == Void, Failure == Never {}
