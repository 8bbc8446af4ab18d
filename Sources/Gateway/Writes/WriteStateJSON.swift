import Foundation
import RDS

/// Renders a resource's write or delete process state as JSON: the `write` and `delete` members
/// of the admin `state` answer and the data of the `event: write` / `event: delete` Server-Sent
/// Events (see ``EventHub``).
///
/// `{"state":"failed","at":"…","element":{"method":"PUT","contentType":…,"size":…,"excerpt":…,
/// "truncated":false,"idempotencyKey":…},"error":{"code":"write_failed",…}}`; `succeeded` has the
/// upstream's `status`, `processing` its `since` and whether it is `queued` in the outbox.
enum WriteStateJSON {
    /// The state as a JSON object.
    static func object(_ state: WriteState<Representation>) -> [String: Any] {
        var object: [String: Any] = ["state": state.name]
        switch state {
        case .initial:
            break
        case .processing(let element, let since, let queued):
            object["since"] = since.formatted(.iso8601)
            object["queued"] = queued
            object["element"] = element.map { WrittenElement($0).jsonObject } ?? NSNull()
        case .succeeded(let element, let reply, let at):
            object["at"] = at.formatted(.iso8601)
            object["status"] = reply?.status ?? NSNull()
            object["element"] = element.map { WrittenElement($0).jsonObject } ?? NSNull()
        case .failed(let error, let element, let at):
            object["at"] = at.formatted(.iso8601)
            object["error"] = ResourceStateJSON.chain(error)
            object["element"] = element.map { WrittenElement($0).jsonObject } ?? NSNull()
        }
        return object
    }
}
