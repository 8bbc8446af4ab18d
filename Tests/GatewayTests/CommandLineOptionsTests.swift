import Gateway
import Testing

struct CommandLineOptionsTests {
    static func options(
        _ action: CommandLineOptions.Action, config: String? = nil, host: String? = nil, port: Int? = nil
    ) -> CommandLineOptions {
        var options = try! CommandLineOptions(arguments: [])
        options.action = action
        options.configPath = config
        options.host = host
        options.port = port
        return options
    }

    @Test(arguments: [
        ([], options(.serve)),
        (["--config", "a.json", "--host", "::1", "--port", "9000"], options(.serve, config: "a.json", host: "::1", port: 9000)),
        (["--check-config", "a.json"], options(.checkConfig("a.json"))),
        (["--help"], options(.help)),
        (["-h"], options(.help)),
        (["--version"], options(.version)),
        (["--port", "9000", "--version"], options(.version, port: 9000)),
        (["version"], options(.version)),
        (["healthcheck"], options(.healthcheck)),
        (["healthcheck", "--port", "9000"], options(.healthcheck, port: 9000)),
        (
            ["healthcheck", "--config", "a.json", "--host", "0.0.0.0", "--port", "1"],
            options(.healthcheck, config: "a.json", host: "0.0.0.0", port: 1)
        ),
        (["healthcheck", "--help"], options(.help)),
    ] as [([String], CommandLineOptions)])
    func parses(arguments: [String], expected: CommandLineOptions) throws {
        #expect(try CommandLineOptions(arguments: arguments) == expected)
    }

    @Test(arguments: [
        (["--port"], "--port needs a value"),
        (["--port", "65536"], "from 0 to 65535"),
        (["--config", "--port"], "--config needs a value"),
        (["--prot", "80"], "unknown argument \"--prot\""),
        (["version", "--port", "1"], "version takes no arguments"),
        (["healthcheck", "--check-config", "a.json"], "not --check-config"),
        (["healthcheck", "--version"], "unknown argument \"--version\""),
        (["healthcheck", "--verbose"], "unknown argument \"--verbose\""),
        (["healthcheck", "--port", "http"], "from 0 to 65535"),
    ])
    func rejects(arguments: [String], message: String) {
        #expect {
            try CommandLineOptions(arguments: arguments)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
