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

    /// Every admin endpoint.
    static let all: [AdminEndpoint] =
        [.statusPage, .errors, .reload, .openAPI, .repositories] + AdminResourceAction.allCases.map(resource)

    /// The one method the endpoint answers.
    var method: HTTPMethod {
        switch self {
        case .reload: .post
        case .statusPage, .errors, .openAPI, .repositories: .get
        case .resource(let action): action.method
        }
    }

    /// The path template, `{name}` standing for a repository name.
    var template: String {
        switch self {
        case .statusPage: "/admin/"
        case .errors: "/admin/errors"
        case .reload: "/admin/reload"
        case .openAPI: "/admin/openapi.json"
        case .repositories: "/admin/repositories"
        case .resource(let action): "/admin/repositories/{name}/\(action.rawValue)"
        }
    }

    /// The endpoint whose template `path` fits, with the repository name it holds; `nil` for none.
    static func match(_ path: Substring) -> (endpoint: AdminEndpoint, name: Substring?)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        for endpoint in all {
            let pattern = endpoint.template.split(separator: "/", omittingEmptySubsequences: false)
            guard pattern.count == parts.count else { continue }
            var name: Substring?
            let fits = zip(pattern, parts).allSatisfy { expected, actual in
                guard expected == "{name}" else { return expected == actual }
                name = actual
                return !actual.isEmpty
            }
            if fits { return (endpoint, name) }
        }
        return nil
    }
}
