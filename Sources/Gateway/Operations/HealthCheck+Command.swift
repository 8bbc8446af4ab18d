import Foundation

extension HealthCheck {
    /// Runs `rds-gateway healthcheck [--port N] [--host H]`: prints one line and returns the exit
    /// code, 0 when `/health` answered 200 and 1 otherwise.
    /// - Parameters:
    ///   - arguments: The arguments after `healthcheck`.
    ///   - environment: The process environment (for `RDS_PORT`).
    public static func runCommand(arguments: [String], environment: [String: String]) -> Int32 {
        do {
            let check = try HealthCheck(arguments: arguments, environment: environment)
            let url = "http://\(check.host):\(check.port)\(check.path)"
            let status = try check.status()
            guard status == 200 else {
                FileHandle.standardError.write(Data("healthcheck: \(url) answered \(status)\n".utf8))
                return 1
            }
            FileHandle.standardOutput.write(Data("healthcheck: \(url) answered 200\n".utf8))
            return 0
        } catch {
            FileHandle.standardError.write(Data("healthcheck: \(error)\n".utf8))
            return 1
        }
    }
}
