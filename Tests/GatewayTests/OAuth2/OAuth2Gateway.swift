import Foundation
import HTTP1
import RDS
import RDSTesting

@testable import Gateway

/// A gateway whose service `up` uses OAuth2 client credentials against an ``OAuth2TokenEndpoint``,
/// in front of an upstream that accepts only the endpoint's live tokens: `/items/{id}` answers
/// 200 with `Cache-Control` ``cacheControl``, or 401 for any other token. All on one manual clock.
struct OAuth2Gateway {
    let clock: ManualClock
    let endpoint: OAuth2TokenEndpoint
    let upstream: EndToEndUpstream
    let gateway: EndToEndGateway
    /// The file the gateway reads the client secret from.
    let secretFile: URL

    /// Starts the three servers; the client secret file holds `fileSecret`, the endpoint accepts
    /// `endpointSecret`, and holds its answers from the start when `holding`.
    static func start(
        fileSecret: String = "client-secret-4f9a", endpointSecret: String = "client-secret-4f9a", holding: Bool = false,
        cacheControl: String = "no-store", settings: (inout OAuth2Settings) -> Void = { _ in },
        repository: (inout RepositorySettings) -> Void = { _ in }
    ) async throws -> OAuth2Gateway {
        let clock = EndToEndGateway.makeClock()
        let endpoint = try await OAuth2TokenEndpoint.start(clientSecret: endpointSecret, clock: clock)
        if holding { endpoint.hold() }
        let upstream = try await EndToEndUpstream.start()
        let secretFile = FileManager.default.temporaryDirectory.appendingPathComponent("oauth2-secret-\(UUID())")
        try Data((fileSecret + "\n").utf8).write(to: secretFile)
        var oauth2 = OAuth2Settings(
            tokenURL: endpoint.tokenURL, clientId: endpoint.clientId, clientSecret: .file(secretFile.path),
            scopes: ["items.read", "items.write"])
        settings(&oauth2)
        var items = RepositorySettings(route: "/items/{id}", service: "up", methods: ["GET", "HEAD", "PUT"])
        repository(&items)
        let gateway = try await EndToEndGateway.start(
            services: ["up": ServiceSettings(baseURL: upstream.baseURL, auth: AuthSettings(oauth2: oauth2))],
            repositories: ["items": items], clock: clock)
        let fixture = OAuth2Gateway(
            clock: clock, endpoint: endpoint, upstream: upstream, gateway: gateway, secretFile: secretFile)
        fixture.script(cacheControl: cacheControl)
        return fixture
    }

    /// The gateway's OAuth2 provider of `up`.
    var tokens: OAuth2CredentialProvider {
        guard let tokens = gateway.container.credentials["up"]?.tokens else { fatalError("no OAuth2 provider") }
        return tokens
    }

    /// Scripts `/items/1` … `/items/300` (and `/items/w`).
    private func script(cacheControl: String) {
        let endpoint = endpoint
        for id in (1...300).map(String.init) + ["w"] {
            upstream.on("/items/\(id)") { request, _ in
                guard endpoint.accepts(request.headers["Authorization"]) else {
                    return EndToEndUpstream.Reply(
                        status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#], body: "")
                }
                return EndToEndUpstream.Reply(
                    headers: ["Content-Type": "application/json", "Cache-Control": cacheControl],
                    body: #"{"id":"\#(id)"}"#)
            }
        }
    }

    /// Returns once `count` token requests have been received and the one in flight has ended.
    func tokenRequestsEnded(_ count: Int) async {
        await endpoint.waitForRequests(count)
        await tokens.settled()
    }

    /// The token each request to `path` carried, in order.
    func tokensSent(to path: String) -> [String] {
        upstream.requests(path).map { $0.headers["Authorization"] ?? "none" }
    }

    /// `GET /health/ready` as JSON.
    func readiness() async throws -> [String: Any] {
        let response = try await gateway.get("/health/ready")
        return try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any] ?? [:]
    }

    /// The `up` entry of the readiness report's upstreams.
    func upstreamReadiness() async throws -> [String: Any] {
        let upstreams = try await readiness()["upstreams"] as? [[String: Any]] ?? []
        return upstreams.first { $0["service"] as? String == "up" } ?? [:]
    }

    /// The value of the metric line `name{…}` holding every one of `labels`, or `nil`.
    func metric(_ name: String, _ labels: [String]) async throws -> Double? {
        let text = try await gateway.get("/metrics").text
        let line = text.split(separator: "\n").first { line in
            line.hasPrefix(name + "{") && labels.allSatisfy { line.contains($0) }
        }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
    }

    /// Sends `count` `GET /items/{id}` at once for the ids from `first`; returns their statuses.
    func concurrentGets(from first: Int, count: Int) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for id in first..<(first + count) {
                group.addTask { try await gateway.get("/items/\(id)").status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Stops everything and removes the secret file.
    func stop() async {
        await gateway.stop()
        await upstream.stop()
        await endpoint.stop()
        try? FileManager.default.removeItem(at: secretFile)
    }
}
