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
    /// state. A failure's Problem Details name what the write tried to write.
    private func forward(
        _ request: HTTPRequest, key: ResourceKey, in repository: Repository<ResourceKey, Representation>,
        route: RepositoryRoute
    ) async -> HTTPResponse {
        let element = Representation.write(
            request.method, body: request.body, contentType: request.headers["Content-Type"],
            idempotencyKey: request.headers["Idempotency-Key"])
        do {
            let result =
                request.method == .delete
                ? try await repository.delete(key, element: element) : try await repository.save(element, for: key)
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
}
