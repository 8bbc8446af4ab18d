import Foundation
import Gateway
import RDS
import Testing

struct ProblemDetailsTests {
    private static func object(_ problem: ProblemDetails) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(problem.jsonBytes())) as? [String: Any])
    }

    /// The codes of the nested `inner` chain, outermost first, and whether it ends in `null`.
    private static func innerCodes(_ object: [String: Any]) -> (codes: [String], endsInNull: Bool) {
        var codes: [String] = []
        var current = object["inner"]
        while let link = current as? [String: Any] {
            codes.append(link["code"] as? String ?? "?")
            current = link["inner"]
        }
        return (codes, current is NSNull)
    }

    @Test func jsonBytes_NameTheCauseAtTheTop_AndCarryTheWholeChainInInner() throws {
        let error = RepositoryError(
            .fetchFailed, "Could not load london",
            inner: ServiceError(
                .timeout, "The weather service did not answer within 2 s",
                inner: RepositoryError(.cancelled, "transport gave up")))
        let problem = ProblemDetails(error: error, instance: "/weather/london", repository: "weather")

        let object = try Self.object(problem)

        #expect(object["status"] as? Int == 504)
        #expect(object["title"] as? String == "Upstream timed out")
        #expect(object["code"] as? String == "upstream_timeout")
        #expect(object["type"] as? String == "https://rds-gateway.dev/errors/upstream_timeout")
        #expect(object["detail"] as? String == "The weather service did not answer within 2 s")
        #expect(object["instance"] as? String == "/weather/london")
        #expect(object["repository"] as? String == "weather")
        let inner = Self.innerCodes(object)
        #expect(inner.codes == ["fetch_failed", "upstream_timeout", "cancelled"])
        #expect(inner.endsInNull)
        let outermost = try #require(object["inner"] as? [String: Any])
        #expect(outermost["message"] as? String == "Could not load london")
    }

    @Test func gatewayRefusal_IsItsOwnCause() throws {
        let problem = ProblemDetails(error: GatewayError(.routeNotFound, "No route matches /x"), instance: "/x")

        let object = try Self.object(problem)

        #expect(problem.status == 404)
        #expect(object["code"] as? String == "route_not_found")
        #expect(object["detail"] as? String == "No route matches /x")
        #expect(Self.innerCodes(object).codes == ["route_not_found"])
        #expect(Self.innerCodes(object).endsInNull)
    }

    @Test func chainWithoutACause_Is500_NamingItsInnermostLink() throws {
        let error = RepositoryError(
            .writeFailed, "Could not purge the resource",
            inner: DatastoreError(.deleteFailed, "Could not delete a datastore file"))

        let object = try Self.object(ProblemDetails(error: error, instance: "/admin/repositories/w/cache"))

        #expect(object["status"] as? Int == 500)
        #expect(object["code"] as? String == "datastore_delete_failed")
        #expect(object["detail"] as? String == "Could not delete a datastore file")
        #expect(Self.innerCodes(object).codes == ["write_failed", "datastore_delete_failed"])
    }
}
