import Foundation
import Gateway
import HTTP1
import RDSTesting
import Synchronization
import Testing

/// The reload in process: what is kept, rebuilt, added and removed; what needs a restart; an
/// invalid configuration changes nothing.
struct GatewayReloaderTests {
    private static func configuration(_ repositories: [String: RepositorySettings], timeout: Double = 5)
        -> GatewayConfiguration
    {
        GatewayConfiguration(
            services: [
                "up": ServiceSettings(baseURL: "http://127.0.0.1:9", timeouts: UpstreamTimeouts(total: timeout))
            ],
            repositories: repositories)
    }

    private static let items = RepositorySettings(route: "/items/{id}", service: "up")
    private static let notes = RepositorySettings(route: "/notes/{id}", service: "up")

    @Test func reload_KeepsUnchangedRepositories_RebuildsChangedOnes_AndNamesRestartOnlySections() async throws {
        let source = Mutex(Self.configuration(["items": Self.items, "old": Self.notes]))
        let container = try await Bootstrap.makeContainer(
            configuration: source.withLock { $0 }, clock: ManualClock(), logger: RecordingLogger())
        let reloader = GatewayReloader(container: container) { (source.withLock { $0 }, "memory") }

        source.withLock {
            $0 = Self.configuration(["items": Self.items, "new": Self.notes])
            $0.server.port = 9_999
        }
        let first = try await reloader.reload()
        source.withLock { $0 = Self.configuration(["items": Self.items, "new": Self.notes], timeout: 7) }
        let second = try await reloader.reload()

        #expect(first.added == ["new"])
        #expect(first.removed == ["old"])
        #expect(first.kept == ["items"])
        #expect(first.changed.isEmpty)
        #expect(first.restartRequired == ["server"])
        #expect(reloader.handler.container.configuration.server.port == container.configuration.server.port)
        #expect(second.changed == ["items", "new"])
        #expect(second.kept.isEmpty)
        let metrics = reloader.handler.container.metrics.prometheusText()
        #expect(!metrics.contains(#"rds_gateway_cache_entries{repository="old""#))
        let itemsSeries = #"rds_gateway_cache_entries{repository="items",level="memory"}"#
        #expect(metrics.components(separatedBy: itemsSeries).count == 2)
    }

    @Test func reload_OfInvalidConfiguration_KeepsTheRunningOne_AndAnswers422() async throws {
        let container = try await Bootstrap.makeContainer(
            configuration: Self.configuration(["items": Self.items]), clock: ManualClock(), logger: RecordingLogger())
        let reloader = GatewayReloader(container: container) {
            throw ConfigurationError(file: "gateway.json", keyPath: "repositories", problem: "is broken")
        }
        var request = HTTPRequest(method: .post, target: "/admin/reload")
        request.remoteAddress = "127.0.0.1"
        let answer = await reloader.handler.handle(request)
        #expect(answer.status == 422)
        #expect(reloader.handler.container === container)
        let routed = await reloader.handler.handle(HTTPRequest(method: .get, target: "/nothing"))
        #expect(routed.status == 404)
    }
}
