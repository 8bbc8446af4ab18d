/// Yields until `condition` holds or a bounded number of yields has passed, for waiting on other
/// tasks without sleeping; returns whether the condition holds.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<100_000 where !condition() { await Task.yield() }
    return condition()
}
