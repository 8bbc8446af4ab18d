import HTTP1

/// The admin endpoints the router answers: the method each takes and its path template, as the
/// OpenAPI description (`GET /admin/openapi.json`) names them.
enum AdminEndpoint: Hashable, Sendable {
    /// `GET /admin/`: the live status page (HTML).
    case statusPage
    /// `GET /admin/errors`: the last problem answers with their error chains.
    case errors
    /// `POST /admin/reload`: reload the configuration file.
    case reload
    /// `GET /admin/openapi.json`: the API description.
    case openAPI
    /// `GET /admin/repositories`: every repository's settings and levels.
    case repositories
    /// `/admin/repositories/{name}/<action>`: one repository's resources.
    case resource(AdminResourceAction)
    /// `/admin/repositories/{name}/writes…`: one repository's outbox.
    case queuedWrites(QueuedWriteAction)

    /// Every admin endpoint.
    static let all: [AdminEndpoint] =
        [.statusPage, .errors, .reload, .openAPI, .repositories] + AdminResourceAction.allCases.map(resource)
        + QueuedWriteAction.allCases.map(queuedWrites)

    /// The one method the endpoint answers.
    var method: HTTPMethod {
        switch self {
        case .reload: .post
        case .statusPage, .errors, .openAPI, .repositories: .get
        case .resource(let action): action.method
        case .queuedWrites(let action): action.method
        }
    }

    /// The path template, `{name}` standing for a repository name, `{id}` for a queued write's id.
    var template: String {
        switch self {
        case .statusPage: "/admin/"
        case .errors: "/admin/errors"
        case .reload: "/admin/reload"
        case .openAPI: "/admin/openapi.json"
        case .repositories: "/admin/repositories"
        case .resource(let action): "/admin/repositories/{name}/\(action.rawValue)"
        case .queuedWrites(let action): "/admin/repositories/{name}" + action.suffix
        }
    }

    /// The endpoints whose template `path` fits (several when they differ by method only), each
    /// with the values of its `{…}` segments; empty for none.
    static func match(_ path: Substring) -> [(endpoint: AdminEndpoint, captures: [String: Substring])] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return all.compactMap { endpoint in
            let pattern = endpoint.template.split(separator: "/", omittingEmptySubsequences: false)
            guard pattern.count == parts.count else { return nil }
            var captures: [String: Substring] = [:]
            for (expected, actual) in zip(pattern, parts) {
                if expected.hasPrefix("{") {
                    guard !actual.isEmpty else { return nil }
                    captures[String(expected.dropFirst().dropLast())] = actual
                } else if expected != actual {
                    return nil
                }
            }
            return (endpoint, captures)
        }
    }
}
