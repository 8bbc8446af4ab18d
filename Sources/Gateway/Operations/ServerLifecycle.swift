import Foundation
import HTTP1
import RDS

/// The end of `main`: serve until SIGTERM or SIGINT, then shut down gracefully.
public enum ServerLifecycle {
    /// Waits for the first shutdown signal, stops accepting, lets in-flight requests finish
    /// within `gracePeriod`, and returns the exit status (0). A second signal meanwhile ends the
    /// process at once (see ``ShutdownSignals``).
    /// - Parameters:
    ///   - server: The started server.
    ///   - signals: Installed before the server started, so an early signal is not lost.
    ///   - gracePeriod: How long in-flight requests may take.
    ///   - logger: Receives `shutdown_started` and `shutdown_finished`.
    public static func serveUntilSignalled(
        _ server: HTTPServer, signals: ShutdownSignals, gracePeriod: Duration, logger: any Logger
    ) async -> Int32 {
        let signal = await signals.first()
        logger.log(
            .info, "shutdown_started",
            [
                "signal": .string(signalName(signal)), "grace_ms": .double(gracePeriod.milliseconds),
                "open_connections": .int(server.openConnections),
            ])
        let start = ContinuousClock.now
        await server.shutdown(gracePeriod: gracePeriod)
        logger.log(.info, "shutdown_finished", ["duration_ms": .double((ContinuousClock.now - start).milliseconds)])
        return 0
    }

    /// `SIGTERM`, `SIGINT`, or `signal <n>`.
    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        default: "signal \(number)"
        }
    }
}
