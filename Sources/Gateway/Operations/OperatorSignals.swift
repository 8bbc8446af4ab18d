import Foundation
import RDS

/// What the gateway does with the signals besides SIGTERM and SIGINT (``ShutdownSignals``):
/// `SIGPIPE` is ignored (a write to a closed pipe or socket fails with `EPIPE` instead of
/// ending the process; a dropped log line is counted), `SIGUSR1` and `SIGUSR2` are logged and
/// ignored, and `SIGHUP` reloads the configuration.
public enum OperatorSignals {
    /// Ignores `SIGPIPE` process-wide, and `SIGHUP`, `SIGUSR1` and `SIGUSR2` until their
    /// handlers are installed (their default action ends the process); call first at start-up.
    public static func ignoreAtStartUp() {
        for number in [SIGPIPE, SIGHUP, SIGUSR1, SIGUSR2] { signal(number, SIG_IGN) }
    }

    /// Logs and otherwise ignores `SIGUSR1` and `SIGUSR2`.
    public static func ignoreUserSignals(logger: any Logger) {
        SignalRelay.listen(to: [SIGUSR1, SIGUSR2]) { number in
            logger.log(.info, "signal_ignored", ["signal": .int(Int(number))])
        }
    }

    /// Reloads the configuration with `reloader` on every `SIGHUP`; the outcome is logged by the
    /// reloader (a failed reload keeps the running configuration).
    public static func reloadOnHangUp(_ reloader: GatewayReloader, logger: any Logger) {
        SignalRelay.listen(to: [SIGHUP]) { number in
            logger.log(.info, "reload_requested", ["signal": .int(Int(number))])
            Task { _ = try? await reloader.reload() }
        }
    }
}
