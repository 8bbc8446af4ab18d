import Foundation
@testable import Gateway
import Testing

/// `cache.inFlightBodyBytes` and `server.limits.sseMaxLag`: defaults and ranges.
struct ConfigurationMemoryLimitsTests {
    @Test func memoryLimits_HaveTheirDefaults() throws {
        let configuration = try ConfigurationTests.load(ConfigurationTests.base())
        #expect(configuration.cache.inFlightBodyBytes == 256 * 1_048_576)
        #expect(configuration.server.limits.sseMaxLag == 30)
        let server = configuration.server.httpConfiguration
        #expect(server.limits.maxStreamLag == .seconds(30))
    }

    @Test(arguments: [0, 1_048_575, (1 << 40) + 1])
    func inFlightBodyBytes_OutOfRange_IsRefused(bytes: Int) throws {
        var object = ConfigurationTests.base()
        object["cache"] = ["inFlightBodyBytes": bytes]
        let error = try ConfigurationTests.error(object)
        #expect(error.keyPath == "cache.inFlightBodyBytes")
    }

    @Test(arguments: [0, -1, 86_401])
    func sseMaxLag_OutOfRange_IsRefused(seconds: Double) throws {
        var object = ConfigurationTests.base()
        object["server"] = ["limits": ["sseMaxLag": seconds]]
        #expect(try ConfigurationTests.error(object).keyPath == "server.limits.sseMaxLag")
    }
}
