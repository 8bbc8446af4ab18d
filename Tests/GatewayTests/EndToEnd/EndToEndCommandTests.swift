import Foundation
import Testing

@testable import Gateway

struct EndToEndCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func temporaryFile(_ text: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rds-config-\(UUID()).json")
        try Data(text.utf8).write(to: file)
        return file
    }

    @Test func builtInDefault_EqualsConfigGatewayJSON() throws {
        let file = try String(contentsOf: Self.root.appendingPathComponent("Config/gateway.json"), encoding: .utf8)
        #expect(DefaultConfiguration.json + "\n" == file)
    }

    @Test func checkConfig_ExitsZero_ForTheShippedConfiguration() async {
        let path = Self.root.appendingPathComponent("Config/gateway.json").path
        #expect(await GatewayCommand.main(arguments: ["--check-config", path], environment: [:]) == 0)
    }

    @Test func checkConfig_ExitsOne_ForABadConfiguration() async throws {
        let file = try Self.temporaryFile(#"{"services": {}, "repositories": {"a": {"route": "/a", "service": "b"}}}"#)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(await GatewayCommand.main(arguments: ["--check-config", file.path], environment: [:]) == 1)
    }

    @Test func main_PrintsTheVersion_ForBothSpellings() async {
        #expect(await GatewayCommand.main(arguments: ["--version"], environment: [:]) == 0)
        #expect(await GatewayCommand.main(arguments: ["version"], environment: [:]) == 0)
        #expect(GatewayVersion.current.split(separator: ".").count == 3)
    }

    @Test func main_ExitsTwo_ForAnUnknownFlag() async {
        #expect(await GatewayCommand.main(arguments: ["--prot", "80"], environment: [:]) == 2)
        #expect(throws: CommandLineError("--port needs a number from 0 to 65535, not \"http\"")) {
            try CommandLineOptions(arguments: ["--port", "http"])
        }
    }

    @Test func loadConfiguration_AppliesFlagsOverTheEnvironment() throws {
        let options = try CommandLineOptions(arguments: ["--host", "::1", "--port", "9999"])
        let (configuration, source) = try GatewayCommand.loadConfiguration(
            options,
            environment: [
                "RDS_CONFIG": Self.root.appendingPathComponent("Config/gateway.json").path, "RDS_PORT": "7000",
            ])
        #expect(source.hasSuffix("Config/gateway.json"))
        #expect(configuration.server.host == "::1")
        #expect(configuration.server.port == 9999)
    }

    @Test func main_ExitsOne_WhenThePortIsTaken() async throws {
        let occupant = try await EndToEndUpstream.start()
        let port = try #require(URL(string: occupant.baseURL)?.port)
        let file = try Self.temporaryFile(
            #"{"services": {"up": {"baseURL": "\#(occupant.baseURL)"}}, "repositories": {"a": {"route": "/a", "service": "up"}}}"#
        )
        defer { try? FileManager.default.removeItem(at: file) }
        let status = await GatewayCommand.main(
            arguments: ["--config", file.path, "--port", "\(port)"], environment: [:])
        #expect(status == 1)
        await occupant.stop()
    }
}
