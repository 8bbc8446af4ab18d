import HTTP1
import RDS

/// One upstream answer as the gateway keeps it: status, its end-to-end header fields, and the
/// body bytes. It is the `Value` of every gateway repository.
///
/// Every end-to-end field survives, in the upstream's order (RFC 9110 §7.6.1): the hop-by-hop
/// fields in ``hopByHopHeaderNames``, those the answer's `Connection` names, and the framing
/// `Content-Length` (the server writes its own) are dropped when a representation is made.
/// The kept fields carry their wire form (``HTTPHeaders/withSerializedFields()``), so that a
/// response replaying them copies one buffer; an upstream answer gets it only once it may be
/// stored (``withWireForm()``): an answer passed through once is written field by field.
/// `Set-Cookie` is kept here, so it reaches the client on answers not served from cache, but it
/// is never stored: the encoded form leaves it out and ``RepositoryResponse`` never replays it.
///
/// A representation also carries a *write*: for ``HTTPService/save(_:for:)`` set ``method`` to
/// `PUT`, `PATCH` or `POST` (see ``write(_:body:contentType:)``); the body and `Content-Type` are
/// forwarded. Fetched and stored representations always have `method == nil`.
public struct Representation: Sendable, Hashable {
    /// The hop-by-hop fields a representation never keeps, lower-cased (RFC 9110 §7.6.1), with
    /// the framing `Content-Length`.
    public static let hopByHopHeaderNames: [String] = [
        "connection", "proxy-connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade",
        "content-length",
    ]

    /// The HTTP status the upstream answered.
    public var status: Int { contents.status }
    /// The end-to-end header fields, in the upstream's order.
    public var headers: HTTPHeaders { contents.headers }
    /// The body.
    public var body: [UInt8] { contents.body }
    /// For a write handed to ``HTTPService/save(_:for:)``: the method to forward (`nil` means `PUT`).
    /// Always `nil` on fetched representations.
    public var method: HTTPMethod? { contents.method }

    /// The parts, in one shared box: a representation is copied several times on every cache
    /// hit (into and out of entries, answers and plans), which is then one reference count, not
    /// one per field array, wire form, body and method.
    private let contents: Contents

    private final class Contents: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: [UInt8]
        let method: HTTPMethod?
        let replayFacts: ReplayFacts

        init(status: Int, headers: HTTPHeaders, body: [UInt8], method: HTTPMethod?, replayFacts: ReplayFacts? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.method = method
            self.replayFacts = replayFacts ?? ReplayFacts(headers.fields)
        }
    }

    /// Its validators and whether it holds a field a cached answer replaces, found once.
    var replayFacts: ReplayFacts { contents.replayFacts }

    /// Creates a representation, dropping the hop-by-hop fields and those named in `Connection`.
    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = [], method: HTTPMethod? = nil) {
        // With their wire form made once: a cached representation's head is then copied, not
        // rebuilt field by field, on every hit.
        self.init(
            status: status, keptHeaders: Self.endToEndFields(of: headers).withSerializedFields(), body: body,
            method: method)
    }

    /// The fields of `headers` a representation keeps: all but the hop-by-hop fields and those
    /// named in `Connection`, in their order, without a wire form.
    static func endToEndFields(of headers: HTTPHeaders) -> HTTPHeaders {
        let named = namedInConnection(headers)
        // Names compared without case (no lower-casing and hashing of every name of every upstream answer).
        var kept: [HTTPField] = []
        kept.reserveCapacity(headers.count)
        for field in headers.fields
        where !(Self.mayBeHopByHop(field.name)
            && Self.hopByHopHeaderNames.contains(where: { HTTPHeaders.equalsIgnoringCase($0, field.name) }))
            && !named.contains(where: { HTTPHeaders.equalsIgnoringCase($0, field.name) })
        {
            kept.append(field)
        }
        return HTTPHeaders(kept)
    }

    /// The field names the `Connection` fields of `headers` list (hop-by-hop too, RFC 9110 §7.6.1).
    static func namedInConnection(_ headers: HTTPHeaders) -> [String] {
        // The usual `Connection: keep-alive` (or `close`) names no field but a hop-by-hop one: not split.
        guard headers.fields.contains(where: Self.namesOtherFields) else { return [] }
        return headers.values(for: "Connection").flatMap { value in
            value.utf8.split(separator: UInt8(ascii: ",")).map { String(Substring($0).trimmingWhitespace()) }
        }
    }

    /// Bit `n` set when a name in ``hopByHopHeaderNames`` is `n` bytes long (all are shorter than 64).
    private static let hopByHopLengths: UInt64 = hopByHopHeaderNames.reduce(0) { $0 | 1 << $1.utf8.count }

    /// `false` when `name` has the length of no hop-by-hop name: most fields of an answer (`Date`,
    /// `Content-Type`, `Cache-Control`, `ETag`…) are told apart so, without being compared with each name.
    private static func mayBeHopByHop(_ name: String) -> Bool {
        let length = name.utf8.count
        // A masking shift: the smart `<<` with an `Int` amount is generic code, slower than the comparisons.
        return length < 64 && hopByHopLengths & (1 &<< UInt64(length)) != 0
    }

    /// `true` for a `Connection` field that may name fields besides the hop-by-hop ones (anything
    /// but a lone `keep-alive` or `close`).
    private static func namesOtherFields(_ field: HTTPField) -> Bool {
        HTTPHeaders.equalsIgnoringCase(field.name, usually: "Connection")
            && !HTTPHeaders.equalsIgnoringCase(field.value, usually: "keep-alive")
            && !HTTPHeaders.equalsIgnoringCase(field.value, usually: "close")
    }

    /// A representation of fields already kept (nothing hop-by-hop in them).
    init(status: Int, keptHeaders: HTTPHeaders, body: [UInt8], method: HTTPMethod?) {
        contents = Contents(status: status, headers: keptHeaders, body: body, method: method)
    }

    /// This representation with its fields' wire form, as every stored one has (its replay
    /// facts, of the same fields, are kept).
    public func withWireForm() -> Representation {
        Representation(
            contents: Contents(
                status: status, headers: headers.withSerializedFields(), body: body, method: method,
                replayFacts: replayFacts))
    }

    /// This representation with `headers` instead of its own, in their wire form; `headers` are
    /// taken as they are (fields of representations, such as stored fields updated from a 304's:
    /// nothing in them is hop-by-hop). When they differ from its own at most in the values of
    /// `Date` and `Server` (a 304 usually changes nothing else), its wire form and replay facts,
    /// which those values do not touch, are kept rather than made again.
    func replacingHeaders(_ headers: HTTPHeaders) -> Representation {
        guard let shared = headers.sharingSerializedFields(of: self.headers) else {
            return Representation(
                status: status, keptHeaders: headers.withSerializedFields(), body: body, method: method)
        }
        return Representation(
            contents: Contents(status: status, headers: shared, body: body, method: method, replayFacts: replayFacts))
    }

    private init(contents: Contents) { self.contents = contents }

    /// A write to forward with ``HTTPService/save(_:for:)`` (or, for `DELETE`, with
    /// ``HTTPService/delete(_:carrying:)``): `method` with `body`, its `contentType` and the
    /// client's `Idempotency-Key`, if any.
    public static func write(
        _ method: HTTPMethod, body: [UInt8], contentType: String?, idempotencyKey: String? = nil
    ) -> Representation {
        var headers = HTTPHeaders()
        if let contentType { headers["Content-Type"] = contentType }
        if let idempotencyKey { headers["Idempotency-Key"] = idempotencyKey }
        return Representation(status: 0, headers: headers, body: body, method: method)
    }

    /// Equal when status, fields, body and method are.
    public static func == (lhs: Representation, rhs: Representation) -> Bool {
        lhs.contents === rhs.contents
            || (lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.body == rhs.body
                && lhs.method == rhs.method)
    }

    /// Hashes status, fields, body and method.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(headers)
        hasher.combine(body)
        hasher.combine(method)
    }

    /// The `Content-Type` field, if any.
    public var contentType: String? { headers["Content-Type"] }

    /// The `ETag` and `Last-Modified` fields as validators.
    public var validators: Validators {
        Validators(etag: replayFacts.etag, lastModified: replayFacts.lastModified)
    }
}
