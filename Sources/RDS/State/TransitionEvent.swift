/// A change that is not a resting state, published beside the states (never folded into
/// ``ResourceState``): subscribers see it, then the state the resource rests in.
public enum TransitionEvent: String, Sendable, CaseIterable {
    /// A fetch ended without an answer: every waiter went away, or an admin cancelled it.
    case canceled
}
