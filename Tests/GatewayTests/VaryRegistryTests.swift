import Gateway
import Testing

/// Secondary keys under `forwardHeaders: "*"` (RFC 9111 §4.1), and the registry's bounds.
struct VaryRegistryTests {
    static func key(_ path: String, passed: [String: String], headers: [String: String] = [:]) -> ResourceKey {
        ResourceKey(repository: "api", path: path, query: "b=2&a=1", headers: headers, passedHeaders: passed)
    }

    @Test func keyed_MovesLearnedFieldsIntoTheKey_NormalisingWhitespace() {
        let registry = VaryRegistry()
        let plain = Self.key("/a", passed: ["x-trace": " a ,b", "user-agent": "curl"], headers: ["accept": "*/*"])
        #expect(registry.keyed(plain).headers == plain.headers)
        registry.learn(["x-trace"], for: plain)
        let variant = registry.keyed(plain)
        #expect(variant.headers == ["accept": "*/*", "x-trace": "a, b"])
        #expect(variant.passedHeaders == ["user-agent": "curl"])
        #expect(variant != plain)
        #expect(registry.keyed(Self.key("/a", passed: ["x-trace": "a, b"], headers: ["accept": "*/*"])) == variant)
        #expect(registry.keyed(Self.key("/b", passed: ["x-trace": "a"])).headers.isEmpty)
        #expect(registry.variants(of: Self.key("/b", passed: [:])).isEmpty)
        let without = registry.keyed(Self.key("/a", passed: ["user-agent": "curl"]))
        #expect(without.headers.isEmpty)
        #expect(Set(registry.variants(of: Self.key("/a", passed: [:]))) == [plain, variant, without])
    }

    @Test func bounds_ForgetAResource_AndStopRememberingVariants() {
        let registry = VaryRegistry(capacity: 2, variantsPerResource: 2)
        for path in ["/a", "/b", "/c"] { registry.learn(["x-trace"], for: Self.key(path, passed: [:])) }
        let learned = ["/a", "/b", "/c"].filter {
            registry.keyed(Self.key($0, passed: ["x-trace": "1"])).headers["x-trace"] == "1"
        }
        #expect(learned.count == 2)
        let path = learned[0]
        for value in ["2", "3", "4"] { _ = registry.keyed(Self.key(path, passed: ["x-trace": value])) }
        #expect(registry.variants(of: Self.key(path, passed: [:])).count == 2)
        #expect(registry.keyed(Self.key(path, passed: ["x-trace": "9"])).headers["x-trace"] == "9")
    }

    @Test func rekeyed_LearnsTheFieldsAResponseVariesOn_WhenTheKeyPassedThem() throws {
        let registry = VaryRegistry()
        let key = Self.key("/a", passed: ["x-trace": "1", "user-agent": "curl"])
        #expect(registry.rekeyed(key, for: ["Vary": "Accept"]) == nil)
        #expect(registry.rekeyed(Self.key("/a", passed: [:]), for: ["Vary": "X-Trace"]) == nil)
        let variant = try #require(registry.rekeyed(key, for: ["Vary": "X-Trace"]))
        #expect(variant.headers == ["x-trace": "1"])
        #expect(variant.passedHeaders == ["user-agent": "curl"])
        #expect(registry.keyed(key) == variant)
        #expect(registry.rekeyed(variant, for: ["Vary": "X-Trace"]) == nil)
    }
}
