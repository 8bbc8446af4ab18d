import Foundation
import HTTP1
import RDS

extension GatewayRouter {
    /// The header carrying the Unix time (seconds) a webhook request was signed at.
    static let hookTimestampHeader = "X-RDS-Timestamp"
    /// The header carrying `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`.
    static let hookSignatureHeader = "X-RDS-Signature"
    /// The most paths plus tags one webhook request may name.
    static let maxHookTargets = 10_000

    /// `POST /hooks/{repository}`: the upstream's change notification, signed with the
    /// repository's hook secret. Answers how many resources were affected, with an id also logged.
    func hook(_ request: HTTPRequest) async -> HTTPResponse {
        let path = request.path
        let name = String(path.dropFirst("/hooks/".count))
        guard let route = container.route(named: name), let settings = route.settings.hook,
            let repository = container.makeRepository(named: name), let secret = Self.hookSecret(settings)
        else { return refuse(.routeNotFound, "No webhook for \(path)", path: path) }
        guard request.method == .post else {
            return refuse(.methodNotAllowed, "POST only", path: path, allow: "POST")
        }
        let metrics = container.metrics.hooks
        guard verifySignature(of: request, secret: secret, window: settings.window) else {
            metrics.recordRequest(repository: name, outcome: "unauthorized")
            let refusal = GatewayError(
                .hookUnauthorized,
                "The webhook needs \(Self.hookSignatureHeader): sha256=<HMAC-SHA256 of timestamp.body> and "
                    + "\(Self.hookTimestampHeader) within \(Int(settings.window)) s of the gateway's clock")
            return ProblemResponse.make(refusal, path: path, repository: name)
        }
        let targets: [ResourceKey]
        let action: ChangeAction
        let change = Self.parseChange(request.body)
        if case .success(let parsed) = change { await learnSharedTags(parsed.tags, route: route) }
        switch change.flatMap({ change in
            self.keys(paths: change.paths, tags: change.tags, route: route).map { (change.action, $0) }
        }) {
        case .success(let (parsed, found)):
            (action, targets) = (parsed, found)
        case .failure(let refusal):
            metrics.recordRequest(repository: name, outcome: "bad_request")
            return ProblemResponse.make(refusal, path: path, repository: name)
        }
        metrics.recordRequest(repository: name, outcome: "accepted")
        let id = RequestID.current?.value ?? RequestID.generate().value
        do {
            let affected = try await apply(action, to: targets, in: repository)
            container.logger.log(
                .info, "hook",
                ["repository": .string(name), "action": .string(action.rawValue), "affected": .int(affected),
                 "hook_id": .string(id)])
            return JSONResponse.make(["id": id, "repository": name, "action": action.rawValue, "affected": affected])
        } catch {
            return ProblemResponse.make(error, path: path, repository: name)
        }
    }

    /// The secret of a hook: its variable or file, else its insecure default; `nil` when neither is set.
    static func hookSecret(_ settings: HookSettings) -> String? {
        (try? SecretReader(settings.secret, what: "hook secret").read()) ?? settings.insecureDefault
    }

    /// `true` when the request carries a timestamp within `window` of the clock and the
    /// HMAC-SHA256 of `timestamp.body` under `secret`, compared in constant time.
    private func verifySignature(of request: HTTPRequest, secret: String, window: TimeInterval) -> Bool {
        guard let timestamp = request.headers[Self.hookTimestampHeader], let seconds = Int(timestamp),
            abs(container.clock.now.timeIntervalSince1970 - Double(seconds)) <= window,
            let signature = request.headers[Self.hookSignatureHeader], signature.hasPrefix("sha256=")
        else { return false }
        let code = HMACSHA256.code(key: Array(secret.utf8), message: Array("\(timestamp).".utf8) + request.body)
        return HMACSHA256.constantTimeEquals(
            Array(HMACSHA256.hex(code).utf8), Array(signature.dropFirst("sha256=".count).lowercased().utf8))
    }

    /// The action, paths and tags of a webhook body:
    /// `{"action": "refresh" | "invalidate" | "soft-purge", "paths": […], "tags": […]}`.
    private static func parseChange(
        _ body: [UInt8]
    ) -> Result<(action: ChangeAction, paths: [String], tags: [String]), GatewayError> {
        let expected = #"expected {"action": "refresh"|"invalidate"|"soft-purge", "paths": [...], "tags": [...]}"#
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let actionName = object["action"] as? String, let action = ChangeAction(rawValue: actionName),
            Set(object.keys).isSubset(of: ["action", "paths", "tags"])
        else { return .failure(GatewayError(.badRequest, "A webhook body is JSON: \(expected)")) }
        let paths = object["paths"] as? [String] ?? []
        let tags = object["tags"] as? [String] ?? []
        guard (object["paths"] == nil || object["paths"] is [String]), (object["tags"] == nil || object["tags"] is [String]),
            !(paths.isEmpty && tags.isEmpty), paths.count + tags.count <= maxHookTargets
        else {
            return .failure(
                GatewayError(.badRequest, "A webhook names 1 to \(maxHookTargets) paths and tags: \(expected)"))
        }
        return .success((action, paths, tags))
    }
}
