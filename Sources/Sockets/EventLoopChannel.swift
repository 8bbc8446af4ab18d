/// What an ``EventLoop`` drives: a descriptor it watches, told of readiness and of each deadline
/// check, on the loop's thread only.
public protocol EventLoopChannel: AnyObject {
    /// The watched descriptor.
    var descriptor: Int32 { get }
    /// The descriptor is ready for `events`.
    func handle(_ events: EPoll.Events)
    /// The loop's periodic deadline check (every `checkInterval`), at the loop turn's time `now`.
    func checkDeadline(now: LoopInstant)
    /// Closes the channel now: the loop is stopping, or was told to close everything.
    func abort()
}
