import Foundation
import HTTP1
import HTTPCaching
import RDS

/// A ``Service`` over HTTP: maps a ``ResourceKey`` to an upstream request, sends it through a
/// ``Transport`` and turns the answer into a ``Representation`` with RFC 9111 freshness.
///
/// - Reads: `GET` base URL + key path + key query (+ a credential that goes in the query), with
///   the default headers, the key's forwarded headers (those the allow-list admits), the
///   credentials' headers and, when revalidating, `If-None-Match` / `If-Modified-Since`. A 304
///   answers `.notModifiedRenewing`, renewing the stored representation with the 304's header fields
///   (RFC 9111 §4.3.4).
/// - Credentials come from the injected ``CredentialProvider``s on every call. A 401 answered to
///   a call that carried credentials is reported to them; when one says a new credential may
///   help, the call (a write too: the upstream refused it before acting) is sent once more with
///   fresh credentials, and a second 401 is the upstream's answer.
/// - Writes: ``save(_:for:)`` forwards the representation's ``Representation/method`` (`PUT` when
///   `nil`), body, `Content-Type` and `Idempotency-Key`; ``delete(_:carrying:)`` sends `DELETE`
///   (with the element's `Idempotency-Key`). The reply is the upstream's
///   answer; it is also what the cache keeps when the upstream answered 200 or 201 with a body that
///   may be stored (for `POST` only when its `Content-Location` is the key's own path); otherwise
///   the key is dropped, since an unsafe method invalidates what was stored (RFC 9111 §4.4).
/// - Any answer the upstream sent with a status below 500 is an answer, 4xx included (a 404 or
///   410 is cacheable by default, RFC 9111 §4.2.2).
/// - Errors are ``ServiceError``: 5xx and malformed answers `badResponse` (a 5xx wraps the
///   ``UpstreamReply``), refused or unreachable `unavailable`, timeouts `timeout`, no credential
///   `authFailed`; transport failures are wrapped as `inner`. No credential ever appears in them.
/// - Cancelling the calling task (the client went away) abandons the call with `CancellationError`.
public struct HTTPService: Service {
    /// The service's name, used in error details.
    public let name: String
    /// Supplies the base URL.
    public let host: any HostProvider
    /// The transport's timeouts.
    public internal(set) var timeouts: UpstreamTimeouts
    /// Headers sent on every call (a forwarded client header of the same name replaces one).
    public let defaultHeaders: HTTPHeaders
    /// Supply the credentials sent on every call (an API key, a bearer token, an OAuth2 token).
    public let credentials: [any CredentialProvider]
    /// Which of a key's headers are forwarded.
    public let forwardedHeaders: HeaderAllowList
    /// Carries the calls.
    public let transport: any Transport
    /// Watches the calls (request ids, metrics), if anything does.
    public let observer: (any UpstreamCallObserver)?
    /// Reads the request and response times for freshness.
    public let clock: any ClockProvider
    /// Decides storability and lifetime.
    public let policy: FreshnessPolicy
    /// Learns which unkeyed forwarded fields (`forwardHeaders: "*"`) answers vary on, if any.
    public let variants: VaryRegistry?
    /// The base URL's parts, parsed once.
    let bases = UpstreamBaseCache()

    /// Creates a service whose base URL comes from `host`.
    /// - Parameters:
    ///   - name: The service's name, for error details.
    ///   - host: Supplies the base URL (`http://` or `https://`, optionally with a base path).
    ///   - timeouts: The transport's timeouts.
    ///   - defaultHeaders: Headers sent on every call.
    ///   - credentials: Supply the credentials sent on every call.
    ///   - forwardedHeaders: Which of a key's headers are forwarded.
    ///   - transport: Carries the calls.
    ///   - observer: Watches the calls, if anything does.
    ///   - clock: Reads the request and response times.
    ///   - policy: Decides storability and lifetime (its targeted field is removed from answers).
    ///   - variants: Learns the unkeyed fields answers vary on (the route's registry), if any.
    public init(
        name: String, host: any HostProvider, timeouts: UpstreamTimeouts = UpstreamTimeouts(),
        defaultHeaders: HTTPHeaders = [:], credentials: [any CredentialProvider] = [],
        forwardedHeaders: HeaderAllowList = HeaderAllowList(), transport: any Transport,
        observer: (any UpstreamCallObserver)? = nil, clock: any ClockProvider = SystemClock(),
        policy: FreshnessPolicy = FreshnessPolicy(), variants: VaryRegistry? = nil
    ) {
        self.name = name
        self.host = host
        self.timeouts = timeouts
        self.defaultHeaders = defaultHeaders
        self.credentials = credentials
        self.forwardedHeaders = forwardedHeaders
        self.transport = transport
        self.observer = observer
        self.clock = clock
        self.policy = policy
        self.variants = variants
    }

    /// Creates a service for a fixed `baseURL`; the other parameters are those of the initializer
    /// taking a `host` provider.
    public init(
        name: String, baseURL: URL, timeouts: UpstreamTimeouts = UpstreamTimeouts(),
        defaultHeaders: HTTPHeaders = [:], credentials: [any CredentialProvider] = [],
        forwardedHeaders: HeaderAllowList = HeaderAllowList(), transport: any Transport,
        observer: (any UpstreamCallObserver)? = nil, clock: any ClockProvider = SystemClock(),
        policy: FreshnessPolicy = FreshnessPolicy(), variants: VaryRegistry? = nil
    ) {
        self.init(
            name: name, host: FixedHostProvider(baseURL: baseURL), timeouts: timeouts, defaultHeaders: defaultHeaders,
            credentials: credentials, forwardedHeaders: forwardedHeaders, transport: transport, observer: observer,
            clock: clock, policy: policy, variants: variants)
    }

    /// Fetches the resource, conditionally when `validators` are given.
    /// - Throws: ``ServiceError``, or `CancellationError` when the task was cancelled.
    public func get(_ key: ResourceKey, ifChangedFrom validators: Validators?) async throws
        -> ServiceResponse<Representation>
    {
        try await get(key, ifChangedFrom: validators, timeouts: timeouts)
    }

    /// ``get(_:ifChangedFrom:)`` within `timeouts` instead of the service's own (given, not set
    /// on a copy of the service: copying one costs a reference count per part, twice).
    func get(_ key: ResourceKey, ifChangedFrom validators: Validators?, timeouts: UpstreamTimeouts) async throws
        -> ServiceResponse<Representation>
    {
        var conditions = HTTPHeaders()
        // Room made only for a conditional request (an empty list allocates nothing).
        if validators != nil { conditions.reserveCapacity(2) }
        if let etag = validators?.etag { conditions.add(name: "If-None-Match", value: etag) }
        if let lastModified = validators?.lastModified { conditions.add(name: "If-Modified-Since", value: lastModified) }
        let exchange = try await perform(.get, key: key, extraHeaders: conditions, timeouts: timeouts)
        return try answer(to: exchange, key: key, conditional: !conditions.fields.isEmpty)
    }

    /// What the exchange of a read of `key` (`conditional` when it carried validators) amounts to.
    /// - Throws: ``ServiceError`` (`badResponse`) for a 304 to an unconditional request.
    func answer(to exchange: consuming UpstreamExchange, key: ResourceKey, conditional: Bool) throws
        -> ServiceResponse<Representation>
    {
        if exchange.status == 304 {
            guard conditional else {
                throw failure(.badResponse, "answered 304 to an unconditional request", key: key, status: 304)
            }
            let policy = policy
            // Moved into the closure, not copied (a copy retains each of the exchange's parts).
            let notModified = consume exchange
            return .notModifiedRenewing { stored in notModified.renewing(stored, policy: policy) }
        }
        let response = exchange.representation
        let freshness = exchange.freshness(policy)
        // Only an answer that may be stored is replayed from its wire form and revalidated with
        // its validators: they are made for that one only.
        guard freshness.isStorable else { return .fetched(Fetched(value: response, freshness: freshness)) }
        return .fetched(Fetched(value: response.withWireForm(), freshness: freshness, validators: response.validators))
    }

    /// Forwards a write: `value.method` (`PUT` when `nil`) with its body and `Content-Type`.
    /// - Throws: ``ServiceError``, or `CancellationError` when the task was cancelled.
    public func save(_ value: Representation, for key: ResourceKey) async throws -> WriteResult<Representation> {
        let method = value.method ?? .put
        var headers = HTTPHeaders()
        if let contentType = value.contentType { headers["Content-Type"] = contentType }
        if let key = value.headers["Idempotency-Key"] { headers["Idempotency-Key"] = key }
        let exchange = try await perform(method, key: key, extraHeaders: headers, body: value.body)
        let reply = exchange.representation
        return WriteResult(reply: reply, stored: stored(reply, from: exchange, method: method))
    }

    /// Forwards a `DELETE`; the key is dropped from the cache.
    /// - Throws: ``ServiceError``, or `CancellationError` when the task was cancelled.
    public func delete(_ key: ResourceKey) async throws -> WriteResult<Representation> {
        try await delete(key, carrying: nil)
    }

    /// Forwards a `DELETE` with the `Idempotency-Key` of `element`, if any; the key is dropped from the cache.
    /// - Throws: ``ServiceError``, or `CancellationError` when the task was cancelled.
    public func delete(_ key: ResourceKey, carrying element: Representation?) async throws
        -> WriteResult<Representation>
    {
        var headers = HTTPHeaders()
        if let idempotencyKey = element?.headers["Idempotency-Key"] { headers["Idempotency-Key"] = idempotencyKey }
        let exchange = try await perform(.delete, key: key, extraHeaders: headers)
        return WriteResult(reply: exchange.representation, stored: nil)
    }

    /// The other keys a write's `reply` invalidates (RFC 9111 §4.4): its same-origin `Location` and
    /// `Content-Location` under this service's base URL, as keys without forwarded headers.
    public func invalidated(by reply: Representation, writing key: ResourceKey) -> [ResourceKey] {
        let base = host.baseURL
        let basePath = base.path.hasSuffix("/") ? String(base.path.dropLast()) : base.path
        guard let requestURL = URL(string: Self.joinedPath(base: base.absoluteString, key.path)) else { return [] }
        return InvalidationTargets.uris(in: reply.headers, status: reply.status, requestURL: requestURL)
            .compactMap { uri -> ResourceKey? in
                guard let components = URLComponents(url: uri, resolvingAgainstBaseURL: true),
                    components.percentEncodedPath.hasPrefix(basePath)
                else { return nil }
                let path = String(components.percentEncodedPath.dropFirst(basePath.count))
                let target = ResourceKey(repository: key.repository, path: path, query: components.percentEncodedQuery?[...])
                return target.path == key.path && target.query == key.query ? nil : target
            }
    }

    /// What the cache keeps after a successful write answered `reply`: see the type's documentation.
    private func stored(_ reply: Representation, from exchange: UpstreamExchange, method: HTTPMethod)
        -> Fetched<Representation>?
    {
        guard reply.status == 200 || reply.status == 201, !reply.body.isEmpty else { return nil }
        if method == .post {
            guard let location = exchange.responseHeaders["Content-Location"],
                location == exchange.path || URL(string: location)?.path == exchange.path
            else { return nil }
        }
        let freshness = exchange.freshness(policy)
        guard freshness.isStorable else { return nil }
        // What a later GET replays is the resource itself: 200, not the write's "201 Created".
        let resource = Representation(status: 200, headers: reply.headers, body: reply.body)
        return Fetched(value: resource, freshness: freshness, validators: reply.validators)
    }
}
