import Sockets

/// The answer a handler gives later, on the connection's event loop, without a task: what
/// ``HTTPHandler/answerOnLoop(_:_:)`` hands it. The connection waits for it as it waits for a
/// handler task (its idle and write deadlines do not run meanwhile).
///
/// Confined to the loop: call its methods on the loop's thread only (work started there, such as
/// an HTTP client call on ``EventLoop/current``, calls back there).
public struct HTTPLoopAnswer: @unchecked Sendable {
    let connection: HTTPConnection

    /// The loop the answer is expected on.
    public var loop: EventLoop { connection.loop }

    /// Answers the request (once). An answer given after the client went away is dropped.
    public func respond(_ response: HTTPResponse) {
        connection.loopAnswered(response)
    }

    /// Registers what to do when the connection closes before the answer (the client went away,
    /// or the server is stopping): `cancel` runs once, on the loop, and no answer is expected then.
    /// Does nothing once the answer was given or the connection closed.
    public func onCancel(_ cancel: @escaping () -> Void) {
        guard connection.isAwaitingLoopAnswer else { return }
        connection.loopAnswerCancel = cancel
    }
}
