import Foundation
import Gateway
import HTTP1
import Testing

struct TransportSchemeTests {
    @Test(arguments: [
        ("http://a.test", 80, "plain"), ("https://a.test", 443, "secure"), ("HTTPS://a.test:8443", 8443, "secure"),
    ])
    func send_ChoosesTransportByScheme(_ url: String, _ port: Int, _ expected: String) async throws {
        let plain = ScriptedTransport(status: 200, body: "plain")
        let secure = ScriptedTransport(status: 200, body: "secure")
        let parsed = try #require(URL(string: url))
        let endpoint = try #require(UpstreamEndpoint(url: parsed))
        #expect(endpoint.port == port)
        let response = try await SchemeTransport(http: plain, https: secure).send(
            HTTPRequest(method: .get, target: "/"), to: endpoint, timeouts: UpstreamTimeouts())
        guard case .bytes(let body) = response.body else { throw HTTPBodyIsStream() }
        #expect(String(decoding: body, as: UTF8.self) == expected)
        #expect(plain.requests.count + secure.requests.count == 1)
    }

    /// A service calls the chosen transport itself, without the scheme transport in between.
    @Test func carrier_IsTheChosenTransportItself() throws {
        let plain = ScriptedTransport(status: 200)
        let secure = ScriptedTransport(status: 200)
        let scheme = SchemeTransport(http: plain, https: secure)
        let http = try #require(UpstreamEndpoint(url: URL(string: "http://a.test")!))
        let https = try #require(UpstreamEndpoint(url: URL(string: "https://a.test")!))
        #expect(scheme.carrier(for: http) as? ScriptedTransport === plain)
        #expect(scheme.carrier(for: https) as? ScriptedTransport === secure)
        #expect(plain.carrier(for: https) as? ScriptedTransport === plain)
    }

    @Test(arguments: ["ftp://a.test/x", "file:///etc/passwd", "http:///nohost", "mailto:a@b.c"])
    func endpoint_IsNil_ForUnsupportedURL(_ url: String) throws {
        let parsed = try #require(URL(string: url))
        #expect(UpstreamEndpoint(url: parsed) == nil)
    }

    @Test func endpoint_BracketsIPv6_InHostHeader_AndHidesCredentials() throws {
        let url = try #require(URL(string: "http://user:pw@[::1]:8080/p?k=v"))
        let endpoint = try #require(UpstreamEndpoint(url: url))
        #expect(endpoint.host == "::1")
        #expect(endpoint.hostHeader == "[::1]:8080")
        #expect(endpoint.description == "http://[::1]:8080")
    }
}
