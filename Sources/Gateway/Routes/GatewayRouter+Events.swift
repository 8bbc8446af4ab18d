import Foundation
import HTTP1
import RDS

extension GatewayRouter {
    /// The most topics one `/events` subscription may follow.
    static let maxTopics = 1_024

    /// Server-Sent Events of `key`: `retry:`, the current state and its write and delete process
    /// states (or, resuming with `Last-Event-ID`, the events missed), then each change, with ids; a heartbeat comment while
    /// nothing changes. Each state is rendered once for all subscribers; a slow one skips to the
    /// newest (see ``EventHub``).
    func events(of key: ResourceKey, request: HTTPRequest) -> HTTPResponse {
        stream(topics: [.resource(key)], request: request)
    }

    /// `GET /events?topic=<path or route template>&topic=…[&lastEventID=…]`: the states of many
    /// resources, of any repositories, on one stream.
    func multiTopicEvents(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.path
        guard request.method == .get else { return refuse(.methodNotAllowed, "GET only", path: path, allow: "GET") }
        let values = QueryItems(request.query).values(named: "topic")
        guard !values.isEmpty, values.count <= Self.maxTopics else {
            return refuse(.badRequest, "/events needs 1 to \(Self.maxTopics) topic= parameters", path: path)
        }
        var topics: [EventTopic] = []
        for value in values {
            if let route = container.routes.first(where: { $0.settings.route == value }) {
                topics.append(.repository(route.name))
            } else if let (resources, _) = match(value.split(separator: "?", maxSplits: 1).first ?? ""),
                let key = resources.route.key(forTarget: value)
            {
                topics.append(.resource(key))
                resources.refresher?.noteSubscribed(key)
            } else {
                return refuse(.badRequest, "The topic \(value) is neither a route's path nor its template", path: path)
            }
        }
        return stream(topics: topics, request: request)
    }

    private func stream(topics: [EventTopic], request: HTTPRequest) -> HTTPResponse {
        let lastEventID = request.headers["Last-Event-ID"] ?? QueryItems(request.query)["lastEventID"]
        let container = container
        let body = container.events.subscribe(
            to: topics, lastEventID: lastEventID,
            follow: { key in
                let repository = container.makeRepository(named: key.repository)
                let states = repository?.states(of: key) ?? AsyncStream { $0.finish() }
                return (states, repository?.state(of: key) ?? .initialized)
            },
            processes: { key in
                guard let repository = container.makeRepository(named: key.repository) else { return [] }
                return WriteKind.allCases.map { WriteEvent(kind: $0, state: repository.writeState($0, of: key)) }
            })
        let headers: HTTPHeaders = [
            "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no",
        ]
        return HTTPResponse(status: 200, headers: headers, body: .stream(body))
    }
}
