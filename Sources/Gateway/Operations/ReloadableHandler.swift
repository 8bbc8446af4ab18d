import HTTP1
import Synchronization

/// The gateway's handler behind one reference that a configuration reload swaps: a request reads
/// it (an uncontended lock and one retain) and is answered by the router it found, so a request
/// in flight during a reload finishes on the old one. Holds the operations endpoints (`/metrics`, `/health/ready`)
/// in front of the ``GatewayRouter``.
public final class ReloadableHandler: HTTPHandler {
    /// One configuration's handlers, behind one reference (a request retains one object).
    private final class Current: Sendable {
        let router: GatewayRouter
        let operations: OperationsHandler<GatewayRouter>

        init(router: GatewayRouter, operations: OperationsHandler<GatewayRouter>) {
            self.router = router
            self.operations = operations
        }

        // The handlers are asked where they lie: read through a request's reference to this
        // object, they were copied out of it first (a retain and a release of each of their parts).

        func respondImmediately(to request: inout HTTPRequest) -> HTTPResponse? {
            operations.respondImmediately(to: &request)
        }

        func classifiedImmediateAnswer(
            to request: inout HTTPRequest
        ) -> (response: HTTPResponse, route: RouteClassification, xCache: String?)? {
            operations.classifiedImmediateAnswer(to: &request)
        }

        func handle(_ request: HTTPRequest) async -> HTTPResponse {
            await operations.handle(request)
        }
    }

    private let current: Mutex<Current>
    private let reload = Mutex<GatewayRouter.ReloadAction?>(nil)

    /// Serves `container`; `POST /admin/reload` answers 422 until ``enableReload(_:)``.
    public init(container: GatewayDependencyContainer) {
        current = Mutex(Self.make(container, reload: nil))
    }

    /// Makes `POST /admin/reload` call `action`.
    public func enableReload(_ action: @escaping GatewayRouter.ReloadAction) {
        reload.withLock { $0 = action }
        install(container)
    }

    /// The container requests are answered from now.
    public var container: GatewayDependencyContainer { current.withLock { $0 }.router.container }

    /// Answers every later request from `container`.
    public func install(_ container: GatewayDependencyContainer) {
        let next = Self.make(container, reload: reload.withLock { $0 })
        current.withLock { $0 = next }
    }

    /// Asks the current handlers.
    public func respondImmediately(to request: inout HTTPRequest) -> HTTPResponse? {
        current.withLock { $0 }.respondImmediately(to: &request)
    }

    /// Asks the current handlers, which also name the route that answered and the answer's
    /// `X-Cache` value (for metrics and logs).
    public func classifiedImmediateAnswer(
        to request: inout HTTPRequest
    ) -> (response: HTTPResponse, route: RouteClassification, xCache: String?)? {
        current.withLock { $0 }.classifiedImmediateAnswer(to: &request)
    }

    /// Asks the current handlers.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        await current.withLock { $0 }.handle(request)
    }

    /// The route of `request` in the current configuration (for metrics and logs).
    public func classify(_ request: HTTPRequest) -> RouteClassification {
        current.withLock { $0 }.router.classify(request)
    }

    private static func make(_ container: GatewayDependencyContainer, reload: GatewayRouter.ReloadAction?) -> Current {
        var router = GatewayRouter(container: container, demo: container.embeddedDemo?.handler)
        router.reload = reload
        return Current(
            router: router,
            operations: OperationsHandler(wrapping: router, metrics: container.metrics, readiness: container.readiness))
    }
}
