import Gateway
import RDS
import Testing

struct LogLevelEnvironmentTests {
    @Test func resolve_PrefersTheEnvironment_ThenTheConfig_ThenInfo() throws {
        #expect(try LogLevel.resolve(configured: .debug, environment: ["RDS_LOG_LEVEL": "ERROR"]) == .error)
        #expect(try LogLevel.resolve(configured: .debug, environment: ["RDS_LOG_LEVEL": "warn"]) == .warning)
        #expect(try LogLevel.resolve(configured: .debug, environment: [:]) == .debug)
        #expect(try LogLevel.resolve(configured: nil, environment: ["RDS_LOG_LEVEL": ""]) == .info)
    }

    @Test func resolve_NamesTheVariable_WhenItHoldsNoLevel() {
        #expect(throws: LogLevelError(source: "RDS_LOG_LEVEL", value: "loud")) {
            try LogLevel.resolve(configured: nil, environment: ["RDS_LOG_LEVEL": "loud"])
        }
    }
}
