import Foundation
import Testing

@testable import Gateway

/// `services.NAME.auth`: bearer tokens and OAuth2 client credentials; secrets only by reference.
struct ConfigurationAuthTests {
    static let secret = "inline-secret-93kq"

    /// The base configuration with `auth` on its `demo` service.
    static func withAuth(_ auth: Any) -> [String: Any] {
        var object = ConfigurationTests.base()
        object["services"] = ["demo": ["baseURL": "http://127.0.0.1:9", "auth": auth]]
        return object
    }

    static func oauth2(_ changes: [String: Any] = [:]) -> [String: Any] {
        var settings: [String: Any] = [
            "tokenURL": "https://login.example.com/oauth2/token", "clientId": "gw",
            "clientSecret": ["env": "CLIENT_SECRET"],
        ]
        settings.merge(changes) { $1 }
        return ["oauth2": settings]
    }

    @Test func load_ReadsOAuth2Settings_WithDefaults() throws {
        let configuration = try ConfigurationTests.load(Self.withAuth(Self.oauth2()))
        let oauth2 = try #require(configuration.services["demo"]?.auth?.oauth2)
        #expect(oauth2.clientSecret == .environment("CLIENT_SECRET"))
        #expect(oauth2.clientAuthentication == .basic)
        #expect(oauth2.refreshFraction == 0.8)
        #expect(oauth2.defaultLifetime == 3_600)
        #expect(oauth2.scopes.isEmpty)
        let bearer = try ConfigurationTests.load(Self.withAuth(["bearer": ["file": "/run/secrets/t"]]))
        #expect(bearer.services["demo"]?.auth == AuthSettings(bearer: .file("/run/secrets/t")))
    }

    @Test func inlineClientSecret_IsRefused_NamingFileKeyAndExpected_WithoutTheSecret() throws {
        let error = try ConfigurationTests.error(Self.withAuth(Self.oauth2(["clientSecret": Self.secret])))
        #expect(error.file == "test.json")
        #expect(error.keyPath == "services.demo.auth.oauth2.clientSecret")
        #expect(error.problem == SecretSource.expected)
        #expect(!error.description.contains(Self.secret))
        let bearer = try ConfigurationTests.error(Self.withAuth(["bearer": Self.secret]))
        #expect(bearer.keyPath == "services.demo.auth.bearer")
        #expect(!bearer.description.contains(Self.secret))
    }

    @Test(arguments: [
        (#"{"clientSecret": {"env": "A", "file": "/b"}}"#, "services.demo.auth.oauth2.clientSecret", "expected {"),
        (#"{"clientSecret": {"value": "x"}}"#, "services.demo.auth.oauth2.clientSecret.value", "unknown key"),
        (#"{"tokenURL": "ftp://x/token"}"#, "services.demo.auth.oauth2.tokenURL", "expected http://"),
        (#"{"tokenURL": "https://u:p@x/t"}"#, "services.demo.auth.oauth2.tokenURL", "without fragment or credentials"),
        (#"{"clientId": ""}"#, "services.demo.auth.oauth2.clientId", "expected the client identifier"),
        (#"{"scopes": ["a b"]}"#, "services.demo.auth.oauth2.scopes[0]", "expected a scope"),
        (
            #"{"parameters": {"client_secret": "x"}}"#, "services.demo.auth.oauth2.parameters.client_secret",
            "other than"
        ),
        (
            #"{"clientAuthentication": "digest"}"#, "services.demo.auth.oauth2.clientAuthentication",
            #""basic" or "post""#
        ),
        (#"{"refreshFraction": 1}"#, "services.demo.auth.oauth2.refreshFraction", "above 0 and below 1, found 1"),
        (#"{"defaultLifetime": 0}"#, "services.demo.auth.oauth2.defaultLifetime", "above 0"),
        (#"{"tokenUrl": "https://x"}"#, "services.demo.auth.oauth2.tokenUrl", "unknown key"),
    ])
    func badOAuth2Settings_AreRefused_NamingTheKey(changes: String, keyPath: String, problem: String) throws {
        let object = try JSONSerialization.jsonObject(with: Data(changes.utf8)) as? [String: Any] ?? [:]
        let error = try ConfigurationTests.error(Self.withAuth(Self.oauth2(object)))
        #expect(error.keyPath == keyPath)
        #expect(error.problem.contains(problem), "\(error)")
    }

    @Test func bearerAndOAuth2Together_AreRefused() throws {
        var auth = Self.oauth2()
        auth["bearer"] = ["env": "T"]
        let error = try ConfigurationTests.error(Self.withAuth(auth))
        #expect(error.description == #"test.json: services.demo.auth: expected exactly one of "bearer" or "oauth2""#)
    }

    @Test func shippedOAuth2Example_PassesCheckConfig() async {
        let path = EndToEndCommandTests.root.appendingPathComponent("Config/examples/oauth2.json").path
        #expect(await GatewayCommand.main(arguments: ["--check-config", path], environment: [:]) == 0)
    }
}
