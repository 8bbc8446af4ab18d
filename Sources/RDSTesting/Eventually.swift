/// Looks at `condition` until it holds or `limit` passes, and returns whether it holds: for a test
/// waiting on another task or thread to reach a point. The first thousand looks only yield (a
/// task on the same executor gets on at once); later ones sleep a millisecond between looks. A
/// point never reached fails the test's expectation after `limit` instead of hanging the run.
public func eventually(within limit: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    var looks = 0
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        looks += 1
        if looks < 1_000 {
            await Task.yield()
        } else {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    return true
}
