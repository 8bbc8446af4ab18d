import Foundation
import RDS
import Testing

struct ErrorChainTests {
    @Test func chain_ListsEveryLayer_OutermostFirst() throws {
        let transport = ServiceError(.timeout, "The weather service did not answer within 2 s", details: ["service": "weather"])
        let error = RepositoryError(.fetchFailed, "Could not load london", inner: transport)
        let chain = ErrorChain(error)
        #expect(chain.links.map(\.code) == ["fetch_failed", "upstream_timeout"])
        #expect(chain.links[1].details == ["service": "weather"])
    }

    @Test func chain_HidesForeignErrorDescriptions() {
        struct SecretLeak: Error { let token = "s3cr3t" }
        let chain = ErrorChain(RepositoryError(.fetchFailed, "failed", inner: SecretLeak()))
        #expect(chain.links.last?.code == "unexpected")
        #expect(!chain.links.contains { $0.message.contains("s3cr3t") })
    }

    @Test func nested_EncodesInnerAsNullAtTheEnd() throws {
        let error = RepositoryError(.fetchFailed, "outer", inner: ServiceError(.notFound, "inner"))
        let data = try JSONEncoder().encode(ErrorChain(error).nested)
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let inner = try #require(object["inner"] as? [String: Any])
        #expect(object["code"] as? String == "fetch_failed")
        #expect(inner["code"] as? String == "upstream_not_found")
        #expect(inner["inner"] is NSNull)
    }
}
