import Foundation
import HTTP1
import RDS

extension GatewayRouter {
    /// The most queued writes `GET …/writes` lists (the oldest; `pending` and `dead` count them all).
    static let maxListedWrites = 500

    /// The outbox endpoints of one repository: list, show, retry a dead letter, discard.
    func queuedWritesAdmin(_ action: QueuedWriteAction, name: String, id: Substring?, path: Substring) async
        -> HTTPResponse
    {
        guard container.route(named: name) != nil else {
            return refuse(.repositoryNotFound, "No repository named \"\(name)\"", path: path)
        }
        guard let outbox = container.outboxes[name] else {
            if action == .list { return JSONResponse.make(["repository": name, "queue": false, "writes": []]) }
            return refuse(.writeNotFound, "The repository \(name) does not queue writes", path: path)
        }
        if action == .list {
            return JSONResponse.make([
                "repository": name, "queue": true, "pending": outbox.pendingCount, "dead": outbox.deadCount,
                "writes": outbox.oldest(Self.maxListedWrites).map { $0.jsonObject(repository: name) },
            ])
        }
        guard let id = id.flatMap({ UInt64($0) }), let write = outbox.write(id) else {
            return refuse(.writeNotFound, "No queued write \(id ?? "") in \(name)", path: path)
        }
        switch action {
        case .list, .show:
            return JSONResponse.make(write.jsonObject(repository: name))
        case .retry:
            guard await outbox.revive(id) else {
                return refuse(.badRequest, "Write \(id) is not a dead letter", path: path)
            }
            outbox.log("write_revived", write)
            return JSONResponse.make(outbox.write(id)?.jsonObject(repository: name) ?? [:], status: 202)
        case .discard:
            guard await outbox.retire(id) else {
                return refuse(.writeNotFound, "No queued write \(id) in \(name)", path: path)
            }
            outbox.log("write_discarded", write)
            return JSONResponse.make(["repository": name, "discarded": String(id)])
        }
    }
}
