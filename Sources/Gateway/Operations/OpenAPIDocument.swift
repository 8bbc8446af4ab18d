import Foundation
import HTTP1

/// The OpenAPI 3.1 description served at `GET /admin/openapi.json`: the gateway's own endpoints
/// (kept in ``base`` and ``components``) and, added at each request, the repository routes of the running
/// configuration with their captures, keyed query parameters and headers, and methods.
enum OpenAPIDocument {
    /// Header fields OpenAPI does not let a description name as parameters (OpenAPI 3.1 §4.8.12.1).
    private static let reservedHeaders: Set<String> = ["accept", "content-type", "authorization"]

    /// The answer to `GET /admin/openapi.json`.
    static func response(routes: [RepositoryRoute]) -> HTTPResponse {
        JSONResponse.make(object(routes: routes))
    }

    /// The whole document as a JSON object.
    static func object(routes: [RepositoryRoute]) -> [String: Any] {
        guard var document = try? JSONSerialization.jsonObject(with: Data(base.utf8)) as? [String: Any],
            let shared = try? JSONSerialization.jsonObject(with: Data(components.utf8)) as? [String: Any]
        else {
            return [:]
        }
        document["components"] = shared
        var info = document["info"] as? [String: Any] ?? [:]
        info["version"] = GatewayVersion.current
        document["info"] = info
        var paths = document["paths"] as? [String: Any] ?? [:]
        for route in routes {
            paths[path(of: route.template)] = pathItem(for: route)
        }
        document["paths"] = paths
        return document
    }

    /// `template` in OpenAPI's form: a catch-all `{rest...}` becomes `{rest}`.
    static func path(of template: RouteTemplate) -> String {
        let segments = template.segments.map { segment -> String in
            switch segment {
            case .literal(let text): text
            case .variable(let name), .catchAll(let name): "{\(name)}"
            }
        }
        return "/" + segments.joined(separator: "/")
    }

    private static func pathItem(for route: RepositoryRoute) -> [String: Any] {
        let settings = route.settings
        var parameters: [[String: Any]] = route.template.segments.compactMap { segment in
            switch segment {
            case .literal: nil
            case .variable(let name): parameter(name, in: "path", "A path segment.")
            case .catchAll(let name): parameter(name, in: "path", "The rest of the path; may hold `/`.")
            }
        }
        if case .only(let names) = settings.cacheKey.query {
            parameters += names.map { parameter($0, in: "query", "Keys the cache and goes upstream.") }
        }
        let headers = Set(settings.cacheKey.headers + settings.forwardHeaders.filter { $0 != "*" })
        parameters += headers.sorted().filter { !reservedHeaders.contains($0.lowercased()) }.map {
            parameter($0, in: "header", "Goes upstream and keys the cache.")
        }
        var item: [String: Any] = [
            "summary": "Repository \(route.name): service \(settings.service), upstream \(settings.upstreamPath)",
            "parameters": parameters,
        ]
        for method in settings.methods {
            item[method.lowercased()] = operation(method, repository: route.name)
        }
        return item
    }

    private static func parameter(_ name: String, in location: String, _ description: String) -> [String: Any] {
        ["name": name, "in": location, "required": location == "path", "description": description,
         "schema": ["type": "string"]]
    }

    private static func operation(_ method: String, repository: String) -> [String: Any] {
        var operation: [String: Any] = [
            "operationId": repository + method.prefix(1) + method.dropFirst().lowercased(),
            "tags": ["repository \(repository)"],
            "responses": [
                "204": ["description": "The upstream's answer without content."],
                "304": ["description": "The client's copy is current (a conditional request)."],
                "default": ["$ref": "#/components/responses/UpstreamAnswer"],
            ],
        ]
        switch method {
        case "GET":
            operation["summary"] =
                "Read through the cache; with `Accept: text/event-stream`, the resource's states as Server-Sent Events"
        case "HEAD":
            operation["summary"] = "As GET, without a body"
            operation["responses"] = ["default": ["description": "The GET answer's status and fields."]]
        case "DELETE":
            operation["summary"] = "Forwarded upstream; the cache and subscribers are updated once"
            addIdempotency(to: &operation)
        default:
            operation["summary"] = "Forwarded upstream with its body; the cache and subscribers are updated once"
            operation["requestBody"] = ["required": false, "content": ["*/*": [:] as [String: Any]]]
            addIdempotency(to: &operation)
        }
        return operation
    }

    /// A write's `Idempotency-Key` parameter and the answers it adds: 400 (malformed key), 409
    /// (the same request in flight), 422 (the key used for another request), each Problem Details
    /// from the gateway or the upstream's own answer with that status.
    private static func addIdempotency(to operation: inout [String: Any]) {
        operation["parameters"] = [
            parameter(
                "Idempotency-Key", in: "header",
                "Makes a retried write safe: the first answer is remembered and replayed (draft-ietf-httpapi-idempotency-key-header).")
        ]
        var responses = operation["responses"] as? [String: Any] ?? [:]
        for (status, meaning) in [
            ("400", "the Idempotency-Key is malformed"), ("409", "a request with this Idempotency-Key is in flight"),
            ("422", "the Idempotency-Key was used for a different request"),
        ] {
            responses[status] = [
                "description": "Problem Details when \(meaning), or the upstream's own answer.",
                "content": ["*/*": [:] as [String: Any]],
            ]
        }
        operation["responses"] = responses
    }
}
