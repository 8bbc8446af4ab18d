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

    /// This receipt with its answer's fields made from the field lines the call kept (see
    /// ``HTTP1/HTTPResponse/fieldLines``): the answer as today's path reads it.
    func withFieldsMade() -> UpstreamReceipt {
        guard case .success(let answer) = result, let lines = answer.fieldLines else { return self }
        return UpstreamReceipt(
            result: .success(HTTPResponse(status: answer.status, headers: lines.headers, body: answer.body)),
            requestTime: requestTime, responseTime: responseTime, elapsedNanoseconds: elapsedNanoseconds)
    }
}
