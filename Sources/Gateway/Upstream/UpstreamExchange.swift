import Foundation
import HTTP1
import HTTPCaching
import RDS

/// One completed call of an ``HTTPService``: what was sent, what came back, and when.
struct UpstreamExchange: Sendable {
    /// The client's headers the request carried (the key's forwarded fields). The service's own
    /// default headers and API key are left out: they are the same for every client, so an
    /// `Authorization` among them does not make answers private (RFC 9111 §3.5 is about the client's).
    let clientHeaders: HTTPHeaders
    /// The forwarded client fields that do not key the cache (`forwardHeaders: "*"`), lower-cased.
    let unkeyedHeaderNames: Set<String>
    /// The path sent upstream, base path included, without the query.
    let path: String
    /// The answer's status.
    let status: Int
    /// The answer's end-to-end fields (``Representation/endToEndFields(of:)``) but the targeted
    /// one, without their wire form: what its representation keeps.
    let endToEndHeaders: HTTPHeaders
    /// The answer's body.
    let body: [UInt8]
    /// Every header field of the answer (the representation keeps only some).
    let responseHeaders: HTTPHeaders
    /// `true` when the answer has the freshness policy's targeted field (left out of ``endToEndHeaders``).
    let carriesTargetedField: Bool
    /// When the request was sent.
    let requestTime: Date
    /// When the answer arrived.
    let responseTime: Date

    /// The answer's freshness under `policy`, taking the status from the answer unless `status` is
    /// given and the fields from the answer unless `headers` are. An answer that varies (RFC 9111
    /// §4.1) on a field that went upstream without keying the cache is not storable: its key could
    /// not tell the variants apart. An answer that may not be stored has no lifetime (none is
    /// worked out: nothing reads it).
    func freshness(_ policy: FreshnessPolicy, status: Int? = nil, headers: HTTPHeaders? = nil) -> Freshness {
        let headers = headers ?? responseHeaders
        guard
            let rules = policy.storableFreshness(
                status: status ?? self.status, headers: headers, requestHeaders: clientHeaders,
                requestTime: requestTime, responseTime: responseTime)
        else { return Freshness(lifetime: nil, isStorable: false) }
        // Without unkeyed fields only `Vary: *` could tell, and the rules refused that one already.
        let storable = unkeyedHeaderNames.isEmpty || !VaryField(headers).varies(onAnyOf: unkeyedHeaderNames)
        return Freshness(
            lifetime: rules.lifetime, age: rules.age, isStorable: storable, mustRevalidate: rules.mustRevalidate,
            staleWhileRevalidate: rules.staleWhileRevalidate, staleIfError: rules.staleIfError)
    }

    /// The answer as a representation, made anew on each read (a 304's is never made: only its
    /// fields are merged into the stored representation's, see ``renewing(_:policy:)``).
    var representation: Representation {
        Representation(status: status, keptHeaders: endToEndHeaders, body: body, method: nil)
    }

    /// The `stored` representation renewed by this exchange's 304 (RFC 9111 §4.3.4): its fields
    /// updated from the 304's (§3.2), its freshness and validators read from the updated fields.
    /// The 304's fields the representation drops are hop-by-hop (never read for freshness) or the
    /// targeted field (read for freshness, never kept): only when the 304 carries the targeted
    /// field are the fields freshness reads merged apart. `policy` is the service's, whose
    /// targeted field the exchange looked for.
    func renewing(_ stored: Representation, policy: FreshnessPolicy) -> Fetched<Representation> {
        let value = stored.replacingHeaders(StoredHeaders.updated(stored.headers, with: endToEndHeaders))
        let governing =
            carriesTargetedField
            ? StoredHeaders.updated(stored.headers, with: responseHeaders) : value.headers
        return Fetched(
            value: value, freshness: freshness(policy, status: stored.status, headers: governing),
            validators: value.validators)
    }
}
