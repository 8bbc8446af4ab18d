import Foundation
import HTTP1

/// How one upstream call of an ``HTTPService`` came back from its transport: the answer or what
/// the transport threw, and when. A ``LoopPassThrough`` that cannot finish on the loop hands it to
/// today's path (``RequestContext/takePrimedReceipt()``), which then does not call again.
struct UpstreamReceipt: Sendable {
    /// The transport's answer (a whole body), or its error (``TransportError``, `CancellationError`).
    let result: Result<HTTPResponse, any Error>
    /// When the request was sent.
    let requestTime: Date
    /// When the answer was complete, when the receipt was made then (else read as the exchange is made).
    let responseTime: Date?
    /// From sending to the end of the call, for the call observer.
    let elapsedNanoseconds: Int64
}
