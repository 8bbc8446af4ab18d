import Foundation
import Gateway
import HTTP1
import RDS
import Testing

struct FreshnessPolicyTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)
    static let date = HTTPDate.text(now)

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var status = 200
        let headers: HTTPHeaders
        var request: HTTPHeaders = [:]
        let expected: Freshness
        var testDescription: String { name }
    }

    static let storability: [Case] = [
        Case(name: "no headers: storable, no lifetime", headers: [:], expected: Freshness()),
        Case(name: "no-store", headers: ["Cache-Control": "no-store, max-age=60"],
             expected: Freshness(lifetime: 60, isStorable: false)),
        Case(name: "private", headers: ["Cache-Control": "private, max-age=60"],
             expected: Freshness(lifetime: 60, isStorable: false)),
        Case(name: "qualified private", headers: ["Cache-Control": #"private="X-User", max-age=60"#],
             expected: Freshness(lifetime: 60, isStorable: false)),
        Case(name: "Set-Cookie", headers: ["Cache-Control": "max-age=60", "Set-Cookie": "id=1"],
             expected: Freshness(lifetime: 60, isStorable: false)),
        Case(name: "Vary *", headers: ["Cache-Control": "max-age=60", "Vary": "Accept, *"],
             expected: Freshness(lifetime: 60, isStorable: false)),
        Case(name: "Vary on a field", headers: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"],
             expected: Freshness(lifetime: 60)),
        Case(name: "Authorization without permission", headers: ["Cache-Control": "max-age=60"],
             request: ["Authorization": "Bearer t"], expected: Freshness(lifetime: 60, isStorable: false)),
        Case(name: "Authorization with public", headers: ["Cache-Control": "public, max-age=60"],
             request: ["Authorization": "Bearer t"], expected: Freshness(lifetime: 60)),
        Case(name: "Authorization with s-maxage", headers: ["Cache-Control": "s-maxage=30"],
             request: ["Authorization": "Bearer t"], expected: Freshness(lifetime: 30, mustRevalidate: true)),
        Case(name: "Authorization with must-revalidate", headers: ["Cache-Control": "must-revalidate, max-age=5"],
             request: ["Authorization": "Bearer t"], expected: Freshness(lifetime: 5, mustRevalidate: true)),
        Case(name: "201 without explicit freshness", status: 201, headers: [:],
             expected: Freshness(isStorable: false)),
        Case(name: "201 with max-age", status: 201, headers: ["Cache-Control": "max-age=9"],
             expected: Freshness(lifetime: 9)),
        Case(name: "302 with public", status: 302, headers: ["Cache-Control": "public"],
             expected: Freshness()),
        Case(name: "307 with Expires", status: 307, headers: ["Date": date, "Expires": HTTPDate.text(now + 90)],
             expected: Freshness(lifetime: 90)),
        Case(name: "206 never, even with max-age", status: 206, headers: ["Cache-Control": "max-age=60"],
             expected: Freshness(lifetime: 60, isStorable: false)),
        Case(name: "no-cache on 302 is not explicit freshness", status: 302, headers: ["Cache-Control": "no-cache"],
             expected: Freshness(lifetime: 0, isStorable: false, mustRevalidate: true)),
    ]

    static let lifetimes: [Case] = [
        Case(name: "s-maxage over max-age", headers: ["Cache-Control": "max-age=60, s-maxage=10"],
             expected: Freshness(lifetime: 10, mustRevalidate: true)),
        Case(name: "max-age over Expires", headers: ["Cache-Control": "max-age=60", "Date": date,
                                                     "Expires": HTTPDate.text(now + 600)],
             expected: Freshness(lifetime: 60)),
        Case(name: "Expires minus Date", headers: ["Date": HTTPDate.text(now - 100),
                                                   "Expires": HTTPDate.text(now + 200)],
             expected: Freshness(lifetime: 300, age: 100)),
        Case(name: "Expires without Date counts from receipt", headers: ["Expires": HTTPDate.text(now + 45)],
             expected: Freshness(lifetime: 45)),
        Case(name: "Expires in the past", headers: ["Date": date, "Expires": HTTPDate.text(now - 45)],
             expected: Freshness(lifetime: 0)),
        Case(name: "invalid Expires is already expired", headers: ["Expires": "0"], expected: Freshness(lifetime: 0)),
        Case(name: "no-cache: stored, lifetime 0", headers: ["Cache-Control": "no-cache, max-age=60"],
             expected: Freshness(lifetime: 0, mustRevalidate: true)),
        Case(name: "max-age=0", headers: ["Cache-Control": "max-age=0"], expected: Freshness(lifetime: 0)),
        Case(name: "invalid max-age is stale", headers: ["Cache-Control": "max-age=soon"],
             expected: Freshness(lifetime: 0)),
        Case(name: "Age counted", headers: ["Cache-Control": "max-age=60", "Age": "25"],
             expected: Freshness(lifetime: 60, age: 25)),
        Case(name: "invalid Age ignored", headers: ["Cache-Control": "max-age=60", "Age": "-3"],
             expected: Freshness(lifetime: 60)),
        Case(name: "apparent age from Date beats smaller Age",
             headers: ["Cache-Control": "max-age=60", "Age": "5", "Date": HTTPDate.text(now - 20)],
             expected: Freshness(lifetime: 60, age: 20)),
        Case(name: "Date in the future gives no apparent age",
             headers: ["Cache-Control": "max-age=60", "Date": HTTPDate.text(now + 500)],
             expected: Freshness(lifetime: 60)),
        Case(name: "must-revalidate", headers: ["Cache-Control": "max-age=60, must-revalidate"],
             expected: Freshness(lifetime: 60, mustRevalidate: true)),
        Case(name: "proxy-revalidate", headers: ["Cache-Control": "max-age=60, proxy-revalidate"],
             expected: Freshness(lifetime: 60, mustRevalidate: true)),
        Case(name: "stale extensions",
             headers: ["Cache-Control": "max-age=60, stale-while-revalidate=30, stale-if-error=600"],
             expected: Freshness(lifetime: 60, staleWhileRevalidate: 30, staleIfError: 600)),
        Case(name: "must-revalidate cancels stale extensions",
             headers: ["Cache-Control": "max-age=60, must-revalidate, stale-while-revalidate=30, stale-if-error=600"],
             expected: Freshness(lifetime: 60, mustRevalidate: true)),
    ]

    @Test(arguments: storability + lifetimes)
    func freshness_FollowsRFC9111(_ testCase: Case) {
        let freshness = FreshnessPolicy().freshness(
            status: testCase.status, headers: testCase.headers, requestHeaders: testCase.request,
            requestTime: Self.now, responseTime: Self.now)
        #expect(freshness == testCase.expected)
    }

    @Test(arguments: [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501])
    func isStorable_True_ForStatusCacheableByDefault(_ status: Int) {
        let freshness = FreshnessPolicy().freshness(
            status: status, headers: [:], requestTime: Self.now, responseTime: Self.now)
        #expect(freshness.isStorable)
    }

    @Test(arguments: [201, 202, 205, 302, 303, 307, 400, 401, 403, 409, 429, 500, 502, 503, 504])
    func isStorable_False_ForOtherStatusWithoutExplicitFreshness(_ status: Int) {
        let policy = FreshnessPolicy()
        let implicit = policy.freshness(status: status, headers: [:], requestTime: Self.now, responseTime: Self.now)
        #expect(!implicit.isStorable)
        let explicit = policy.freshness(
            status: status, headers: ["Cache-Control": "max-age=5"], requestTime: Self.now, responseTime: Self.now)
        #expect(explicit.isStorable)
    }

    @Test func age_IgnoresSubSecondDifference_BetweenDateAndReceipt() {
        let freshness = FreshnessPolicy().freshness(
            status: 200, headers: ["Cache-Control": "max-age=60", "Date": HTTPDate.text(Self.now)],
            requestTime: Self.now + 0.9, responseTime: Self.now + 0.9)
        #expect(freshness.age == 0)
    }

    @Test func age_AddsResponseDelay_ToAgeHeader() {
        let freshness = FreshnessPolicy().freshness(
            status: 200, headers: ["Cache-Control": "max-age=60", "Age": "10"], requestTime: Self.now,
            responseTime: Self.now + 2)
        #expect(freshness.age == 12)
    }
}
