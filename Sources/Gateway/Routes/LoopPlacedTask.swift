import RDS
import Sockets

/// A fetch running in a task its event loop keeps between jobs (``RequestContext/startTask(_:)``):
/// cancelled on the loop's thread, whichever thread asks.
struct LoopPlacedTask: PlacedTask {
    let loop: EventLoop
    let task: EventLoopTask

    func cancel() {
        guard loop.isInLoopThread else { return loop.execute { [task] in task.cancel() } }
        task.cancel()
    }
}
