import Foundation
import HTTP1
import HTTPCaching
import RDS
import Sockets

extension HTTPService {
    /// Builds, sends and checks one call, sent once more with fresh credentials after a 401 that
    /// a credential provider says a new credential may cure, within `timeouts` (the service's own by
    /// default); every failure leaves as a ``ServiceError``.
    func perform(
        _ method: HTTPMethod, key: ResourceKey, extraHeaders: HTTPHeaders, body: [UInt8] = [],
        timeouts: UpstreamTimeouts? = nil
    ) async throws -> UpstreamExchange {
        try Task.checkCancellation()
        guard let base = bases.base(of: host.baseURL, transport: transport) else {
            throw failure(.unavailable, "has no http:// or https:// base URL", key: key)
        }
        let call = Call(
            method: method, key: key, base: base, extraHeaders: extraHeaders, body: body,
            timeouts: timeouts ?? self.timeouts)
        // Without providers there is nothing to ask for (and no async call to make).
        var sent = credentials.isEmpty ? [] : try await currentCredentials(key: key)
        var exchange = try await send(call, credentials: sent)
        if exchange.status == 401, !sent.isEmpty, await newCredentialMayHelp(sent) {
            sent = try await currentCredentials(key: key)
            exchange = try await send(call, credentials: sent)
        }
        try check(exchange, key: key)
        return exchange
    }

    /// What one call sends, whatever its credentials.
    struct Call {
        let method: HTTPMethod
        let key: ResourceKey
        let base: UpstreamBase
        let extraHeaders: HTTPHeaders
        let body: [UInt8]
        /// The service's timeouts, or shorter ones (a fetch's deadline).
        let timeouts: UpstreamTimeouts
    }

    /// A call's request as the upstream gets it (before the observer adds the request id), with
    /// what reading its answer needs.
    struct Outgoing {
        var request: HTTPRequest
        /// The key's fields the request forwards.
        let forwarded: [(name: String, value: String)]
        /// The path sent upstream, base path included, without the query.
        let path: String
    }

    /// Sends `call` with `credentials` once and collects the answer, whatever its status. The
    /// request's ``RequestContext`` may hold the transport's outcome already (a pass-through
    /// answered on the loop that must end as this path ends, ``LoopPassThrough``): then that is
    /// taken instead of calling the transport.
    private func send(_ call: Call, credentials: [Credential]) async throws -> UpstreamExchange {
        var outgoing = outgoing(call, credentials: credentials)
        let context = RequestContext.current
        let response: HTTPResponse
        let requestTime: Date
        var responseTime: Date?
        if let primed = context?.takePrimedReceipt() {
            response = try answer(of: primed, call: call)
            requestTime = primed.requestTime
            responseTime = primed.responseTime
        } else {
            observer?.willSend(&outgoing.request, id: context?.id)
            requestTime = clock.now
            let sent = LoopInstant.now  // not a ContinuousClock.Instant: no slot of the task's allocator
            do {
                response =
                    if let http1 = call.base.http1Carrier {
                        try await http1.send(outgoing.request, to: call.base.endpoint, timeouts: call.timeouts)
                    } else {
                        try await call.base.carrier.send(outgoing.request, to: call.base.endpoint, timeouts: call.timeouts)
                    }
                observer?.didEnd(.success(response.status), elapsedNanoseconds: LoopInstant.now.nanoseconds(since: sent))
            } catch {
                throw failed(error, elapsedNanoseconds: LoopInstant.now.nanoseconds(since: sent), call: call)
            }
        }
        // A whole body (as the HTTP/1.1 client returns it) is taken as it is, without an async call.
        let bytes: [UInt8]
        if case .bytes(let whole) = response.body {
            bytes = whole
        } else {
            bytes = try await Self.collect(response.body)
        }
        return exchange(
            forwarding: outgoing.forwarded, path: outgoing.path, key: call.key, answer: response, body: bytes,
            requestTime: requestTime, responseTime: responseTime ?? clock.now)
    }

    /// The answer of `call` a ``LoopPassThrough`` received already (`primed`), once the call
    /// observer has heard how the call ended.
    /// - Throws: What `call` throws when the transport threw (``failed(_:elapsedNanoseconds:call:)``).
    private func answer(of primed: UpstreamReceipt, call: Call) throws -> HTTPResponse {
        switch primed.result {
        case .success(let answer):
            observer?.didEnd(.success(answer.status), elapsedNanoseconds: primed.elapsedNanoseconds)
            return answer
        case .failure(let error):
            throw failed(error, elapsedNanoseconds: primed.elapsedNanoseconds, call: call)
        }
    }

    /// What `call` throws when its transport threw `error`, once the call observer has heard of it.
    private func failed(_ error: any Error, elapsedNanoseconds: Int64, call: Call) -> any Error {
        observer?.didEnd(.failure(error), elapsedNanoseconds: elapsedNanoseconds)
        return failure(sending: error, key: call.key, endpoint: call.base.endpoint)
    }

    /// What `call` sends with `credentials`.
    func outgoing(_ call: Call, credentials: [Credential]) -> Outgoing {
        let key = call.key
        let path = Self.joinedPath(base: call.base.path, key.path)
        // Most keys carry no client fields: then nothing is sorted, filtered or joined.
        let forwarded =
            key.headers.isEmpty && key.passedHeaders.isEmpty
            ? []
            : key.sortedHeaders.filter { forwardedHeaders.admits($0.name) || forwardedHeaders.passes($0.name) }
                + key.passedHeaders.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        let request = HTTPRequest(
            method: call.method,
            target: target(path: path, key: key, baseQuery: call.base.query, credentials: credentials),
            headers: headers(
                forwarding: forwarded, host: call.base.hostHeader, credentials: credentials, extra: call.extraHeaders),
            body: call.body)
        return Outgoing(request: request, forwarded: forwarded, path: path)
    }

    /// The exchange of a call for `key` that forwarded the client's `forwarded` fields to `path`
    /// (an ``Outgoing``'s), answered by `answer` with the whole `body`: the answer reduced to a
    /// representation (the targeted field removed), with its times. Learns the unkeyed fields
    /// the answer varies on.
    func exchange(
        forwarding forwarded: [(name: String, value: String)], path: String, key: ResourceKey, answer: HTTPResponse,
        body: [UInt8], requestTime: Date, responseTime: Date
    ) -> UpstreamExchange {
        if !key.passedHeaders.isEmpty {
            variants?.learn(VaryField(answer.headers).names.intersection(key.passedHeaders.keys), for: key)
        }
        // RFC 9213: the targeted field is for this cache only, not passed on.
        let carriesTargetedField = answer.headers.contains(policy.targetedField)
        var passedOn = answer.headers
        if carriesTargetedField { passedOn.remove(policy.targetedField) }
        return UpstreamExchange(
            clientHeaders: HTTPHeaders(forwarded), unkeyedHeaderNames: Set(key.passedHeaders.keys),
            path: path, status: answer.status, endToEndHeaders: Representation.endToEndFields(of: passedOn),
            body: body, responseHeaders: answer.headers, carriesTargetedField: carriesTargetedField,
            requestTime: requestTime, responseTime: responseTime)
    }

    /// What a call throws when its transport threw `error`: `CancellationError` when the call was
    /// cancelled, else a ``ServiceError``.
    private func failure(sending error: any Error, key: ResourceKey, endpoint: UpstreamEndpoint) -> any Error {
        switch error {
        case let error as TransportError:
            if error.kind == .cancelled || Task.isCancelled { return CancellationError() }
            return failure(error, key: key, endpoint: endpoint)
        case is CancellationError:
            return CancellationError()
        default:
            return failure(.badResponse, "failed unexpectedly", key: key, inner: error)
        }
    }

    /// The target: path, then the base URL's query, the key's query and the query credentials.
    func target(path: String, key: ResourceKey, baseQuery: String?, credentials: [Credential]) -> String {
        var parts: [String] = []
        if let baseQuery, !baseQuery.isEmpty { parts.append(baseQuery) }
        if !key.query.isEmpty { parts.append(key.query) }
        for credential in credentials {
            if case .queryParameter(let parameter) = credential.placement {
                parts.append(Self.percentEncoded(parameter) + "=" + Self.percentEncoded(credential.value))
            }
        }
        return parts.isEmpty ? path : path + "?" + parts.joined(separator: "&")
    }

    /// The request fields: `Host`, default headers, the `forwarded` key headers, the credential headers, `extra`.
    private func headers(
        forwarding forwarded: [(name: String, value: String)], host: String, credentials: [Credential],
        extra: HTTPHeaders
    ) -> HTTPHeaders {
        var headers = HTTPHeaders()
        // Room for every field at once, and the one an observer adds (the request id): the
        // storage is made once, never grown field by field.
        headers.reserveCapacity(2 + defaultHeaders.count + forwarded.count + credentials.count + extra.count)
        headers.add(name: "Host", value: host)
        for field in defaultHeaders
        where HeaderAllowList.isForwardable(field.name.lowercased())
            && !forwarded.contains(where: { $0.name == field.name.lowercased() })
        {
            headers.add(name: field.name, value: field.value)
        }
        for field in forwarded { headers.add(name: field.name, value: field.value) }
        for credential in credentials {
            if case .header(let name) = credential.placement { headers[name] = credential.value }
        }
        for field in extra { headers[field.name] = field.value }
        return headers
    }

    /// Any answer the upstream actually sent with a status below 500 is an answer (4xx included);
    /// a 5xx or invalid status throws a ``ServiceError`` (`badResponse`) whose innermost link is
    /// the ``UpstreamReply``.
    func check(_ exchange: UpstreamExchange, key: ResourceKey) throws {
        let status = exchange.status
        guard !Self.isAnswer(status: status) else { return }
        throw failure(
            .badResponse, status < 600 ? "failed" : "answered an invalid status", key: key, status: status,
            inner: UpstreamReply(exchange.representation))
    }

    /// `true` for a status that is the upstream's answer, not its failure: below 500 (see ``check(_:key:)``).
    static func isAnswer(status: Int) -> Bool { (100..<500).contains(status) }

    /// The whole body, gathering a stream if the transport returned one.
    static func collect(_ body: HTTPBody) async throws -> [UInt8] {
        switch body {
        case .bytes(let bytes): return bytes
        case .stream(let stream):
            var bytes: [UInt8] = []
            for await chunk in stream { bytes.append(contentsOf: chunk) }
            try Task.checkCancellation()
            return bytes
        }
    }

    /// `base` and `path` joined with exactly one `/` between them.
    static func joinedPath(base: String, _ path: String) -> String {
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        return trimmed + path
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
