/// The gateway's name and version: printed by `rds-gateway --version` and sent in the `/health`
/// body, where `rds-gateway healthcheck` checks the name to know it reached the gateway itself.
public enum GatewayVersion {
    /// The name in `/health` (`"service"`) and in `--version`.
    public static let name = "rds-gateway"
    /// The version, e.g. `0.1.0`.
    public static let current = "0.1.0"
}
