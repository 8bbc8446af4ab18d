import Foundation
import HTTP1
import RDS

extension GatewayRouter {
    /// The header naming how long, in seconds, the answer to a write with an `Idempotency-Key` is remembered.
    static let retentionHeader = "Idempotency-Retention"
    /// The header marking an answer replayed for a repeated `Idempotency-Key`.
    static let replayedHeader = "Idempotent-Replayed"

    /// A `PUT`/`PATCH`/`POST`/`DELETE`. With an `Idempotency-Key` the repository's ledger decides
    /// first: a repeated request gets the first answer again (`Idempotent-Replayed: true`), one
    /// still in flight 409, the key reused for another request 422; otherwise it is forwarded and
    /// its answer (below 500) remembered. Keyed answers carry `Idempotency-Retention`.
    func write(
        _ request: HTTPRequest, key: ResourceKey, in repository: Repository<ResourceKey, Representation>,
        route: RepositoryRoute
    ) async -> HTTPResponse {
        guard let field = request.headers["Idempotency-Key"] else {
            return await forward(request, key: key, in: repository, route: route)
        }
        guard let idempotencyKey = IdempotencyLedger.key(parsing: field), let ledger = container.ledgers[route.name]
        else {
            return refuse(
                .badRequest, "Idempotency-Key must be a string of 1 to 255 visible ASCII characters",
                path: request.path)
        }
        let fingerprint = IdempotencyLedger.fingerprint(
            method: request.method, target: request.target, contentType: request.headers["Content-Type"],
            body: request.body)
        var response: HTTPResponse
        switch await ledger.claim(idempotencyKey, fingerprint: fingerprint) {
        case .inFlight:
            response = refusal(
                .idempotencyInFlight, "A request with this Idempotency-Key is still being processed", request)
        case .mismatch:
            response = refusal(
                .idempotencyMismatch, "This Idempotency-Key was used for a different request", request)
        case .replay(let answer):
            response = HTTPResponse(status: answer.status, headers: answer.headers, bytes: answer.body)
            response.headers[Self.replayedHeader] = "true"
        case .claimed:
            response = await forward(request, key: key, in: repository, route: route)
            let remembered = response.status < 500 && !Task.isCancelled
            let answer: Representation? =
                if remembered, case .bytes(let body) = response.body {
                    Representation(status: response.status, headers: response.headers, body: body)
                } else {
                    nil
                }
            await ledger.complete(idempotencyKey, fingerprint: fingerprint, answer: answer)
        }
        response.headers[Self.retentionHeader] = String(Int(ledger.retention))
        return response
    }

    private func refusal(_ kind: GatewayError.Kind, _ message: String, _ request: HTTPRequest) -> HTTPResponse {
        ProblemResponse.make(GatewayError(kind, message), path: request.path)
    }

    /// Forwards the write; the repository updates the cache, its subscribers and the write process
    /// state. With an outbox, a write the upstream cannot take now (or one to a resource that has
    /// writes queued already) is queued instead: 202 with its `Location`. A failure's Problem
    /// Details name what the write tried to write.
    private func forward(
        _ request: HTTPRequest, key: ResourceKey, in repository: Repository<ResourceKey, Representation>,
        route: RepositoryRoute
    ) async -> HTTPResponse {
        let outbox = container.outboxes[route.name]
        let kind: WriteKind = request.method == .delete ? .delete : .write
        let element = Representation.write(
            request.method, body: request.body, contentType: request.headers["Content-Type"],
            idempotencyKey: request.headers["Idempotency-Key"] ?? (outbox == nil ? nil : "\"\(UUID().uuidString)\""))
        if let outbox, outbox.hasPending(key) {
            return await queue(kind, element: element, key: key, in: outbox, repository: repository, path: request.path)
        }
        do {
            repository.beginWrite(kind, element: element, for: key)
            let result: WriteResult<Representation>
            do {
                result = try await repository.sendWrite(kind, element: element, for: key)
            } catch {
                if let outbox, WriteDelivery.isTransient(error) {
                    return await queue(
                        kind, element: element, key: key, in: outbox, repository: repository, path: request.path)
                }
                throw repository.failWrite(kind, element: element, for: key, error: error)
            }
            if let outbox, WriteDelivery.retryAfter(result.reply) != nil {
                return await queue(kind, element: element, key: key, in: outbox, repository: repository, path: request.path)
            }
            await repository.finishWrite(kind, element: element, for: key, result: result)
            container.metrics.writes.record(.forwarded, repository: route.name)
            guard let reply = result.reply else { return HTTPResponse(status: 204, headers: ["X-Cache": "BYPASS"]) }
            // RFC 9111 §4.4: the same-origin `Location`/`Content-Location` targets, and every known
            // variant of them and of the written resource, besides the entry the write itself updated.
            let named = (repository.service as? HTTPService)?.invalidated(by: reply, writing: key) ?? []
            for target in named + ([key] + named).flatMap(route.variants.variants(of:)) where target != key {
                try? await repository.purge(target)
            }
            return RepositoryResponse.uncached(reply, forward: "fwd=request", stored: result.stored != nil)
        } catch {
            return failure(
                error, path: request.path, route: route, forward: "fwd=request", element: WrittenElement(element))
        }
    }

    /// Journals the write in `outbox` and answers 202 with its `Location`; subscribers see the
    /// pending value (`loaded`, origin `pending`; `initialized` for a delete) and the write state
    /// `processing` with `queued: true`. A full outbox is 503 with `Retry-After`.
    private func queue(
        _ kind: WriteKind, element: Representation, key: ResourceKey, in outbox: WriteOutbox,
        repository: Repository<ResourceKey, Representation>, path: Substring
    ) async -> HTTPResponse {
        let write: QueuedWrite
        do {
            write = try await outbox.accept(kind, element: element, for: key)
        } catch {
            let failure = repository.failWrite(kind, element: element, for: key, error: error)
            return ProblemResponse.make(
                failure, path: path, repository: outbox.repository, headers: ["Retry-After": "1"],
                element: WrittenElement(element))
        }
        repository.beginWrite(kind, element: element, for: key, queued: true)
        container.metrics.writes.record(.queued, repository: outbox.repository)
        repository.store.broadcasters.publish(
            kind == .delete ? .initialized : .loaded(Self.pendingValue(of: write), origin: .pending, at: write.acceptedAt),
            for: key)
        var object = write.jsonObject(repository: outbox.repository)
        object["status"] = "queued"
        var response = JSONResponse.make(object, status: 202)
        response.headers["Location"] = object["location"] as? String
        return response
    }

    /// What a read answers while `write` waits: its body as a 200 with its `Content-Type`.
    static func pendingValue(of write: QueuedWrite) -> Representation {
        var headers = HTTPHeaders()
        if let type = write.element.contentType { headers["Content-Type"] = type }
        return Representation(status: 200, headers: headers, body: write.element.body)
    }

    /// The answer to a read of a resource with queued writes (read-your-writes): the newest
    /// pending value marked `X-Resource-State: pending`, or 404 naming a pending delete.
    func pendingAnswer(_ write: QueuedWrite, path: Substring, repository: String) -> HTTPResponse {
        guard write.kind == .write else {
            let refusal = GatewayError(.pendingDelete, "A delete of \(path) is queued (write \(write.id))")
            return ProblemResponse.make(refusal, path: path, repository: repository)
        }
        let value = Self.pendingValue(of: write)
        var headers = value.headers
        headers["Cache-Control"] = "no-store"
        headers["X-Cache"] = "PENDING"
        headers["X-Resource-State"] = "pending"
        headers["Cache-Status"] = "\(RepositoryResponse.cacheName); detail=pending"
        headers["Content-Location"] = "/admin/repositories/\(repository)/writes/\(write.id)"
        return HTTPResponse(status: 200, headers: headers, bytes: value.body)
    }
}
