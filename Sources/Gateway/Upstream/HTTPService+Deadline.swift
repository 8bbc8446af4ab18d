import Foundation
import RDS

extension HTTPService {
    /// Fetches as ``get(_:ifChangedFrom:)`` does, ending by `deadline` through the transport's
    /// total timeout, shortened to the time left (both transports end an exchange by it, as
    /// ``Transport`` requires): no task or timer is added per call. A service with credential
    /// providers, whose own calls that timeout does not bound, races the call against the deadline.
    /// - Throws: ``ServiceError``; ``FetchDeadline/Exceeded`` when the deadline ends the call.
    public func get(_ key: ResourceKey, ifChangedFrom validators: Validators?, within deadline: FetchDeadline)
        async throws -> ServiceResponse<Representation>
    {
        guard credentials.isEmpty else {
            return try await deadline.race { try await get(key, ifChangedFrom: validators) }
        }
        let left = deadline.date.timeIntervalSince(clock.now)
        guard left > 0 else { throw FetchDeadline.Exceeded() }
        guard left < timeouts.total else { return try await get(key, ifChangedFrom: validators) }
        let bounded = timeouts(leaving: left)
        do {
            return try await get(key, ifChangedFrom: validators, timeouts: bounded)
        } catch let error as ServiceError where error.kind == .timeout && Self.endedByTotalTimeout(error) {
            throw FetchDeadline.Exceeded()
        }
    }

    /// The service's timeouts for a call that must end within `left` seconds: the total one
    /// shortened to that when it is longer.
    func timeouts(leaving left: TimeInterval) -> UpstreamTimeouts {
        var bounded = timeouts
        bounded.total = min(bounded.total, left)
        return bounded
    }

    /// `true` when the transport gave up at the total timeout (not connecting, nor waiting for a first byte).
    private static func endedByTotalTimeout(_ error: ServiceError) -> Bool {
        (error.inner as? TransportError)?.details["phase"] == "total"
    }
}
