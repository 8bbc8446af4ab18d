import Foundation
import Gateway
import HTTP1
import RDS
import RDSTesting

/// A gateway built by ``Bootstrap`` from an in-memory configuration, listening on port 0, with a
/// manual clock: the subject of the end-to-end tests.
struct EndToEndGateway {
    let container: GatewayDependencyContainer
    let server: HTTPServer
    let clock: ManualClock

    /// Builds and starts a gateway.
    static func start(
        services: [String: ServiceSettings], repositories: [String: RepositorySettings],
        clock: ManualClock = EndToEndGateway.makeClock(), disk: URL? = nil, adminToken: String? = nil,
        passThroughOnLoop: Bool = true
    ) async throws -> EndToEndGateway {
        let configuration = GatewayConfiguration(
            server: ServerSettings(port: 0, adminToken: adminToken),
            cache: CacheSettings(disk: disk.map { DiskCacheSettings(path: $0.path) }), services: services,
            repositories: repositories)
        return try await start(configuration: configuration, clock: clock, passThroughOnLoop: passThroughOnLoop)
    }

    /// Builds and starts a gateway from a whole configuration (e.g. a loaded file; give it port 0);
    /// `passThroughOnLoop: false` answers every pass-through in a task, as before that path.
    static func start(
        configuration: GatewayConfiguration, clock: ManualClock = EndToEndGateway.makeClock(),
        passThroughOnLoop: Bool = true
    ) async throws -> EndToEndGateway {
        let container = try await Bootstrap.makeContainer(
            configuration: configuration, clock: clock, logger: RecordingLogger())
        let server = Bootstrap.makeServer(container: container, passThroughOnLoop: passThroughOnLoop)
        try await server.start()
        return EndToEndGateway(container: container, server: server, clock: clock)
    }

    /// A gateway with one repository `items` on `/items/{id}` → upstream `/items/{id}`, its
    /// settings adjusted by `settings`.
    static func start(
        upstream: String, settings: (inout RepositorySettings) -> Void = { _ in },
        timeouts: UpstreamTimeouts = UpstreamTimeouts(), clock: ManualClock = EndToEndGateway.makeClock(),
        disk: URL? = nil
    ) async throws -> EndToEndGateway {
        var repository = RepositorySettings(route: "/items/{id}", service: "up")
        settings(&repository)
        return try await start(
            services: ["up": ServiceSettings(baseURL: upstream, timeouts: timeouts)],
            repositories: ["items": repository],
            clock: clock, disk: disk)
    }

    var port: Int { server.port }

    /// A manual clock an hour behind the real one, on a whole second: the upstream's `Date`
    /// header is then never "in the past", so no apparent age creeps into the expectations.
    static func makeClock() -> ManualClock {
        ManualClock(start: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3_600).rounded(.down)))
    }

    /// Sends a request to the gateway.
    func send(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: String = "")
        async throws -> HTTPResponse
    {
        try await EndToEndClient.send(method, target, port: port, headers: headers, body: body)
    }

    /// Sends a `GET` to the gateway.
    func get(_ target: String, headers: HTTPHeaders = [:]) async throws -> HTTPResponse {
        try await send(.get, target, headers: headers)
    }

    /// Subscribes to the Server-Sent Events of `target`.
    func subscribe(_ target: String, headers: HTTPHeaders = [:]) throws -> EndToEndEventStream {
        try EndToEndEventStream(target, port: port, headers: headers)
    }

    /// Stops the gateway.
    func stop() async {
        await server.shutdown(gracePeriod: .zero)
        await Bootstrap.shutdown(container: container)
    }
}
