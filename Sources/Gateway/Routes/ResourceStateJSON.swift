import Foundation
import RDS

/// Renders a resource's state as JSON: the SSE `data:` of each event and the admin `state` answer.
///
/// `{"state":"loaded","origin":"service","at":"…","value":{"status":200,"contentType":…,"etag":…,"body":…}}`;
/// a JSON body is embedded as JSON, other text as a string, other bytes as `bodyBase64`.
enum ResourceStateJSON {
    /// The state's name, used as the SSE event name: `initialized`, `loading`, `loaded` or `failed`.
    static func name(of state: ResourceState<Representation>) -> String {
        switch state {
        case .initialized: "initialized"
        case .loading: "loading"
        case .loaded: "loaded"
        case .failed: "failed"
        }
    }

    /// The state as a JSON object.
    static func object(_ state: ResourceState<Representation>) -> [String: Any] {
        var object: [String: Any] = ["state": name(of: state)]
        switch state {
        case .initialized:
            break
        case .loading(let previous):
            object["previous"] = previous.map(value) ?? NSNull()
        case .loaded(let representation, let origin, let at):
            object["origin"] = origin.rawValue
            object["at"] = at.formatted(.iso8601)
            object["value"] = value(representation)
        case .failed(let error, let cached):
            object["error"] = chain(error)
            object["cached"] = cached.map(value) ?? NSNull()
        }
        return object
    }

    /// The state as compact JSON bytes with sorted keys.
    static func bytes(_ state: ResourceState<Representation>) -> [UInt8] {
        let data = try? JSONSerialization.data(
            withJSONObject: object(state), options: [.sortedKeys, .withoutEscapingSlashes])
        return data.map(Array.init) ?? Array(#"{"state":"unencodable"}"#.utf8)
    }

    /// One Server-Sent Event for the state: `event: <name>` and a one-line `data:` JSON.
    static func event(_ state: ResourceState<Representation>) -> [UInt8] {
        Array("event: \(name(of: state))\ndata: ".utf8) + bytes(state) + Array("\n\n".utf8)
    }

    private static func value(_ representation: Representation) -> [String: Any] {
        var object: [String: Any] = ["status": representation.status]
        if let type = representation.contentType { object["contentType"] = type }
        if let etag = representation.headers["ETag"] { object["etag"] = etag }
        let body = Data(representation.body)
        if representation.contentType?.contains("json") == true,
            let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        {
            object["body"] = json
        } else if let text = String(data: body, encoding: .utf8) {
            object["body"] = text
        } else {
            object["bodyBase64"] = body.base64EncodedString()
        }
        return object
    }

    /// The error chain as nested JSON objects, outermost first.
    static func chain(_ error: any Error) -> Any {
        ErrorChain(error).links.reversed().reduce(NSNull() as Any) { inner, link in
            var object: [String: Any] = ["code": link.code, "message": link.message, "inner": inner]
            if !link.details.isEmpty { object["details"] = link.details }
            return object
        }
    }
}
