import Foundation
import HTTP1
import HTTPCaching
import RDS
import Synchronization

/// Turns a ``RepositoryAnswer`` into what the client sees: the upstream's status, body and every
/// stored end-to-end field (its own `Cache-Control`, `Expires` and `Date` included), plus `Age`
/// (RFC 9111 §4.2.3), `Cache-Status` (RFC 9211), `X-Cache` and the stale-because-failed headers;
/// 304 when the client's conditional headers match. `Set-Cookie` is never replayed from cache,
/// nor a stored `X-Request-ID` (another request's: each answer gets its request's own).
enum RepositoryResponse {
    /// The `Cache-Status` cache name.
    static let cacheName = "rds-gateway"

    /// The cache statuses ``usual(_:_:)`` tells apart (a stale answer reads as a hit), in the
    /// order of the values made for them.
    private static let usualStatuses: [CacheStatus] = [.hit, .miss, .revalidated, .bypass]

    /// The `Cache-Status` of an answer with a stored entry, no error and no client `no-cache`, up
    /// to its `ttl` value, by cache status: what ``cacheStatus(_:now:forwardedOnRequest:)`` writes
    /// for those, made once (a hit, a revalidation or a miss is answered once per request).
    private static let storedPrefixes: [String] = usualStatuses.map { status in
        valueBeforeTTL(status, failed: false, forwardedOnRequest: false, stored: true) + "; ttl="
    }

    /// The whole `Cache-Status` of an answer with no stored entry, no error and no client
    /// `no-cache` (a pass-through), by cache status, made once.
    private static let unstoredValues: [String] = usualStatuses.map { status in
        valueBeforeTTL(status, failed: false, forwardedOnRequest: false, stored: false)
    }

    /// The most fields a cached answer gains on its way out: `Age`, `Cache-Control`, `X-Cache`,
    /// `Cache-Status`, the two failure fields, `Content-Range` and the request id.
    static let addedFieldCount = 8

    /// The response for `answer` to `request` at `now`; `forwardedOnRequest` is `true` when the
    /// client asked for revalidation (`no-cache`); `downstreamCacheControl`, when set, replaces
    /// the upstream's `Cache-Control`; `heuristic` adds `detail=heuristic` to `Cache-Status`;
    /// `hiddenField` (the repository's tag field) is removed.
    static func make(
        _ answer: RepositoryAnswer<Representation>, request: HTTPRequest, now: Date, forwardedOnRequest: Bool = false,
        downstreamCacheControl: String? = nil, heuristic: Bool = false, hiddenField: String? = nil
    ) -> HTTPResponse {
        let representation = answer.value
        let facts = representation.replayFacts
        // The stored fields rarely hold one of those replaced here: then each is appended, unsearched.
        let replacing = facts.holdsServedFields
        let hides = hiddenField.map(facts.mayHold) ?? false
        // The stored fields are shared with the cache. Kept as they are, the answer's stored
        // fields (``HTTP1/HTTPResponse/storedHeaders``), when none of them goes or changes; else
        // copied once here, with room for the fields added below and by the server.
        let keepsStored = !replacing && !hides && downstreamCacheControl == nil && answer.error == nil
        var headers = keepsStored ? HTTPHeaders() : representation.headers
        headers.reserveCapacity(headers.count + Self.addedFieldCount)
        if let hiddenField, hides { headers.remove(hiddenField) }
        if replacing { headers.remove(RequestID.headerName) }
        // The entry's age read in place (binding the entry would copy it, fields and all).
        if let age = answer.entry?.age(at: now) {
            if replacing { headers.remove("Set-Cookie") }
            set("Age", ageValue(max(0, Int(age))), in: &headers, replacing: replacing)
        }
        if let downstreamCacheControl { headers["Cache-Control"] = downstreamCacheControl }
        set("X-Cache", xCache(of: answer), in: &headers, replacing: replacing)
        let status = cacheStatus(answer, now: now, forwardedOnRequest: forwardedOnRequest)
        set(
            "Cache-Status", heuristic && answer.error == nil ? status + "; detail=heuristic" : status, in: &headers,
            replacing: replacing)
        if let error = answer.error {
            headers["X-Resource-State"] = "failed"
            headers["X-Resource-Error"] = ProblemResponse.resourceErrorCode(error)
        }
        var response = HTTPResponse(status: representation.status, headers: headers, bytes: representation.body)
        if keepsStored { response.storedHeaders = representation.headers }
        conditional(&response, of: representation, request: request)
        return response
    }

    /// Sets the field `name` to `value`: replacing any field of that name, or, when `replacing`
    /// is `false` (`headers` hold none), appending it.
    private static func set(_ name: String, _ value: String, in headers: inout HTTPHeaders, replacing: Bool) {
        if replacing { headers[name] = value } else { headers.add(name: name, value: value) }
    }

    /// Turns `response` (the whole `representation`) into its answer after the client's
    /// preconditions (RFC 9110 §13.2.2, for a 2xx only) and a single byte range (RFC 9110 §14, for
    /// a 200 to GET only): 304, 412, 206, 416 or left whole. The answers other than the whole hold
    /// every field in their `headers` (rare, they change the stored fields). In place: a response
    /// passed and returned was copied.
    private static func conditional(
        _ response: inout HTTPResponse, of representation: Representation, request: HTTPRequest
    ) {
        let status = representation.status
        guard (200..<300).contains(status) else { return }
        let etag = representation.replayFacts.etag
        let lastModified = representation.replayFacts.lastModified
        switch ConditionalRequest.evaluate(request.headers, etag: etag, lastModified: lastModified) {
        case .notModified: return response = HTTPResponse(status: 304, headers: withoutContentType(response.allHeaders))
        case .preconditionFailed:
            return response = HTTPResponse(status: 412, headers: withoutContentType(response.allHeaders))
        case .proceed: break
        }
        guard status == 200, request.method == .get, request.headers.contains("Range") else { return }
        let length = representation.body.count
        switch ByteRange.evaluate(request.headers, length: length, etag: etag, lastModified: lastModified) {
        case .full:
            return
        case .partial(let lower, let upper):
            var headers = response.allHeaders
            headers["Content-Range"] = "bytes \(lower)-\(upper)/\(length)"
            response = HTTPResponse(status: 206, headers: headers, bytes: Array(representation.body[lower...upper]))
        case .unsatisfiable:
            var headers = withoutContentType(response.allHeaders)
            headers["Content-Range"] = "bytes */\(length)"
            response = HTTPResponse(status: 416, headers: headers)
        }
    }

    /// `headers` but `Content-Type` (an answer without a body, RFC 9110 §8.3), removed in place.
    private static func withoutContentType(_ headers: consuming HTTPHeaders) -> HTTPHeaders {
        headers.remove("Content-Type")
        return headers
    }

    /// The request fields ``conditional(_:of:request:)`` reads: a request without them gets
    /// the answer's own status and body.
    static let conditionalFieldNames = HTTPFieldNames(
        ["If-Match", "If-None-Match", "If-Modified-Since", "If-Unmodified-Since", "Range"])

    /// The fields ``make(_:request:now:forwardedOnRequest:downstreamCacheControl:heuristic:hiddenField:)``
    /// replaces: a relayed answer (``relayed(status:lines:body:downstreamCacheControl:)``) drops
    /// them from its lines, as its representation's fields drop the hop-by-hop ones.
    static let replacedFieldNames = [RequestID.headerName, "X-Cache", "Cache-Status"]

    /// What ``make(_:request:now:forwardedOnRequest:downstreamCacheControl:heuristic:hiddenField:)``
    /// answers for a pass-through (cache status `bypass`, no entry, no error, no heuristic
    /// freshness) to a request without ``conditionalFieldNames``, made from the answer's field
    /// lines as received: `lines` must hold exactly the fields its representation keeps, less
    /// the hidden field and ``replacedFieldNames`` (and `Cache-Control` when
    /// `downstreamCacheControl` replaces it). The same fields in the same order, without a
    /// string per field.
    static func relayed(status: Int, lines: HTTPFieldLines, body: [UInt8], downstreamCacheControl: String?)
        -> HTTPResponse
    {
        var headers = HTTPHeaders()
        // Room for the request id too.
        headers.reserveCapacity(4)
        if let downstreamCacheControl { headers.add(name: "Cache-Control", value: downstreamCacheControl) }
        headers.add(name: "X-Cache", value: xCache(.bypass))
        headers.add(name: "Cache-Status", value: usual(unstoredValues, .bypass))
        var response = HTTPResponse(status: status, headers: headers, bytes: body)
        response.fieldLines = lines
        return response
    }

    /// An answer the upstream sent that is not served from cache (a write's reply, a passed-through
    /// 5xx): its status, fields (`Set-Cookie` included) and body, with `X-Cache` and `Cache-Status`
    /// `<forward>; fwd-status=<status>` (`; stored` when the cache kept it).
    static func uncached(_ reply: Representation, forward: String, stored: Bool) -> HTTPResponse {
        var headers = reply.headers
        // Copied once, with room for `X-Cache`, `Cache-Status` and the request id.
        headers.reserveCapacity(headers.count + 3)
        headers["X-Cache"] = forward == "fwd=request" ? "BYPASS" : "MISS"
        headers["Cache-Status"] =
            "\(cacheName); \(forward); fwd-status=\(reply.status)" + (stored ? "; stored" : "")
        return HTTPResponse(status: reply.status, headers: headers, bytes: reply.body)
    }

    /// The `X-Cache` value of the response ``make(_:request:now:forwardedOnRequest:downstreamCacheControl:heuristic:hiddenField:)``
    /// makes for `answer`: `STALE` for a value served because the upstream failed, else its status's.
    static func xCache(of answer: RepositoryAnswer<Representation>) -> String {
        answer.error == nil ? xCache(answer.cacheStatus) : "STALE"
    }

    /// The `X-Cache` value of `status`: its name in capitals, e.g. `HIT`.
    static func xCache(_ status: CacheStatus) -> String {
        switch status {
        case .hit: "HIT"
        case .miss: "MISS"
        case .stale: "STALE"
        case .revalidated: "REVALIDATED"
        case .bypass: "BYPASS"
        }
    }

    /// The `Cache-Status` field value, e.g. `rds-gateway; hit; ttl=42` or `rds-gateway; fwd=miss; stored`;
    /// a value served because the upstream failed reads `rds-gateway; fwd=stale; ttl=-3; detail=<code>`.
    static func cacheStatus(
        _ answer: RepositoryAnswer<Representation>, now: Date, forwardedOnRequest: Bool
    ) -> String {
        let timeToLive = answer.entry?.timeToLive(at: now).rounded(.down)
        if answer.error == nil, !forwardedOnRequest {
            // The usual answers: a constant, and for a stored entry the digits of its ttl
            // (building the value costs ten times as much); a hit's kept once made.
            guard let timeToLive else { return usual(unstoredValues, answer.cacheStatus) }
            let ttl = Int(timeToLive)
            switch answer.cacheStatus {
            case .hit, .stale: return hitValue(ttl: ttl)
            case let status: return joining(usual(storedPrefixes, status), ttl)
            }
        }
        var value = valueBeforeTTL(
            answer.cacheStatus, failed: answer.error != nil, forwardedOnRequest: forwardedOnRequest,
            stored: answer.entry != nil)
        if let timeToLive {
            value += "; ttl="
            value += String(Int(timeToLive))
        }
        if let error = answer.error {
            value += "; detail="
            value += ProblemResponse.resourceErrorCode(error)
        }
        return value
    }

    /// The member of `values` (made once per usual cache status, in ``usualStatuses`` order) for
    /// `status`; a stale answer reads as a hit there. (Lists, not tuples: a tuple of four strings
    /// passed here was copied, each string retained and released, ~270 instructions per answer.)
    private static func usual(_ values: [String], _ status: CacheStatus) -> String {
        switch status {
        case .hit, .stale: values[0]
        case .miss: values[1]
        case .revalidated: values[2]
        case .bypass: values[3]
        }
    }

    /// The hits' `Cache-Status` values (`rds-gateway; hit; ttl=598`) for each `ttl` below
    /// ``keptHitValues``, made once each: a hot entry is answered many times a second with one
    /// `ttl`, and making its value (an allocation, as it is longer than 15 bytes) costs about 500
    /// instructions, reading it here a lock and a retain. At most ``keptHitValues`` strings (~250 KB).
    private static let hitValues = Mutex<[String?]>(Array(repeating: nil, count: keptHitValues))

    /// The `ttl` values whose hit `Cache-Status` is kept: a bit over an hour.
    static let keptHitValues = 4096

    /// The `Cache-Status` of a hit with `ttl` seconds left: kept in ``hitValues``, or made.
    static func hitValue(ttl: Int) -> String {
        guard ttl >= 0, ttl < keptHitValues else { return joining(usual(storedPrefixes, .hit), ttl) }
        if let kept = hitValues.withLock({ $0[ttl] }) { return kept }
        let value = joining(usual(storedPrefixes, .hit), ttl)
        hitValues.withLock { $0[ttl] = value }
        return value
    }

    /// The `Age` values of the first ``keptAgeValues`` seconds, made once: strings of up to 15
    /// bytes are held inline (no allocation, nothing shared), so reading one costs a bounds check,
    /// where making it cost ~250 instructions per hit. 16 bytes each (~16 KB).
    private static let ageValues: [String] = (0..<keptAgeValues).map { joining("", $0) }

    /// The ages whose `Age` value is kept: a bit over a quarter of an hour.
    static let keptAgeValues = 1024

    /// The `Age` value of `age` seconds (not negative): kept in ``ageValues``, or made.
    static func ageValue(_ age: Int) -> String {
        age < keptAgeValues ? ageValues[age] : joining("", age)
    }

    /// `prefix` followed by the decimal digits of `number`, written into one string of their
    /// length (a string for the digits and a second one for the sum cost several times as much).
    static func joining(_ prefix: String, _ number: Int) -> String {
        var digits = 1
        var rest = number.magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        let sign = number < 0 ? 1 : 0
        let count = prefix.utf8.count + sign + digits
        return String(unsafeUninitializedCapacity: count) { buffer in
            let start = buffer.baseAddress!
            let copied: Void? = prefix.utf8.withContiguousStorageIfAvailable { bytes in
                if let base = bytes.baseAddress { start.update(from: base, count: bytes.count) }
            }
            if copied == nil { _ = buffer.initialize(from: prefix.utf8) }
            if sign == 1 { start[count - digits - 1] = UInt8(ascii: "-") }
            var value = number.magnitude
            var position = count
            repeat {
                position -= 1
                start[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
                value /= 10
            } while value > 0
            return count
        }
    }

    /// A `Cache-Status` value up to where a stored entry's `ttl` follows: the cache's name, then
    /// `hit` or the forward (`fwd-status=304` after a revalidation), and `stored` for a miss or a
    /// revalidation whose answer was kept. One string grown in place (no list of parameters joined).
    private static func valueBeforeTTL(
        _ status: CacheStatus, failed: Bool, forwardedOnRequest: Bool, stored: Bool
    ) -> String {
        var value = cacheName
        value.reserveCapacity(64)
        let forward = forwardedOnRequest ? "fwd=request" : nil
        value += "; "
        switch status {
        case _ where failed:
            value += forward ?? "fwd=stale"
        case .hit, .stale:
            value += "hit"
        case .miss, .bypass:
            value += forward ?? "fwd=miss"
        case .revalidated:
            value += forward ?? "fwd=stale"
            value += "; fwd-status=304"
        }
        if status == .miss || status == .revalidated, stored { value += "; stored" }
        return value
    }
}
