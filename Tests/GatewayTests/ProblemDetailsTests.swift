import Foundation
import Gateway
import RDS
import Testing

struct ProblemDetailsTests {
    @Test func jsonBytes_CarryTheWholeChain() throws {
        let error = RepositoryError(
            .fetchFailed, "Could not load london", inner: ServiceError(.timeout, "no answer within 2 s"))
        let problem = ProblemDetails(error: error, status: 504, title: "Upstream timed out", instance: "/weather/london")
        let object = try #require(JSONSerialization.jsonObject(with: Data(problem.jsonBytes())) as? [String: Any])
        #expect(object["status"] as? Int == 504)
        #expect(object["code"] as? String == "fetch_failed")
        #expect(object["type"] as? String == "https://rds-gateway.dev/errors/fetch_failed")
        let inner = try #require(object["inner"] as? [String: Any])
        #expect(inner["code"] as? String == "upstream_timeout")
        #expect(inner["inner"] is NSNull)
    }
}
