import Foundation
import HTTP1
import RDS

extension GatewayRouter {
    /// A request on a repository route: a read, a Server-Sent Events subscription, or a write.
    func repositoryRequest(_ request: HTTPRequest, route: RepositoryRoute, captures: [String: String]) async
        -> HTTPResponse
    {
        let path = request.path
        let methods = route.settings.methods
        guard methods.contains(request.method.rawValue), let repository = container.makeRepository(named: route.name)
        else {
            return refuse(
                .methodNotAllowed, "The repository \(route.name) allows \(methods.joined(separator: ", "))", path: path,
                allow: methods.joined(separator: ", "))
        }
        let key = route.key(captures: captures, query: request.query, headers: request.headers)
        switch request.method {
        case .get where Self.wantsEvents(request):
            return events(of: key, in: repository)
        case .get, .head:
            let revalidate = Self.wantsRevalidation(request)
            do {
                let answer = try await repository.get(key, intent: revalidate ? .revalidate : .cached)
                return RepositoryResponse.make(
                    answer, request: request, now: container.clock.now, forwardedOnRequest: revalidate)
            } catch {
                return ProblemResponse.make(error, path: path, repository: route.name)
            }
        default:
            return await write(request, key: key, in: repository)
        }
    }

    /// Forwards `PUT`/`PATCH`/`POST`/`DELETE`; the repository updates the cache and its subscribers.
    private func write(_ request: HTTPRequest, key: ResourceKey, in repository: Repository<ResourceKey, Representation>)
        async -> HTTPResponse
    {
        do {
            let result: WriteResult<Representation>
            if request.method == .delete {
                result = try await repository.delete(key)
            } else {
                let value = Representation.write(
                    request.method, body: request.body, contentType: request.headers["Content-Type"])
                result = try await repository.save(value, for: key)
            }
            guard let reply = result.reply else { return HTTPResponse(status: 204, headers: ["X-Cache": "BYPASS"]) }
            var headers = reply.headers
            headers["X-Cache"] = "BYPASS"
            headers["Cache-Status"] =
                "\(RepositoryResponse.cacheName); fwd=request; fwd-status=\(reply.status)"
                + (result.stored != nil ? "; stored" : "")
            return HTTPResponse(status: reply.status, headers: headers, bytes: reply.body)
        } catch {
            return ProblemResponse.make(error, path: request.path, repository: repository.name)
        }
    }

    /// Server-Sent Events of the states of `key`: the current state first, then each change,
    /// until the client goes away, with a heartbeat comment while nothing changes. Each state is
    /// rendered once for all subscribers; a slow one skips to the newest (see ``EventFanOut``).
    func events(of key: ResourceKey, in repository: Repository<ResourceKey, Representation>) -> HTTPResponse {
        let body = container.events.subscribe(to: key) { repository.states(of: key) }
        let headers: HTTPHeaders = [
            "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no",
        ]
        return HTTPResponse(status: 200, headers: headers, body: .stream(body))
    }
}
