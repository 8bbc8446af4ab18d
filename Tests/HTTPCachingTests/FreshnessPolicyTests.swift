import Foundation
import HTTPCaching
import HTTP1
import Testing

struct FreshnessPolicyTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)
    static let date = text(now)

    /// `date` as an IMF-fixdate.
    static func text(_ date: Date) -> String {
        String(decoding: HTTPDate.format(secondsSince1970: Int(date.timeIntervalSince1970)), as: UTF8.self)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var status = 200
        let headers: HTTPHeaders
        var request: HTTPHeaders = [:]
        let expected: ResponseFreshness
        var testDescription: String { name }
    }

    static let storability: [Case] = [
        Case(name: "no headers: storable, no lifetime", headers: [:], expected: ResponseFreshness()),
        Case(name: "no-store", headers: ["Cache-Control": "no-store, max-age=60"],
             expected: ResponseFreshness(lifetime: 60, isStorable: false)),
        Case(name: "private", headers: ["Cache-Control": "private, max-age=60"],
             expected: ResponseFreshness(lifetime: 60, isStorable: false)),
        Case(name: "qualified private", headers: ["Cache-Control": #"private="X-User", max-age=60"#],
             expected: ResponseFreshness(lifetime: 60, isStorable: false)),
        Case(name: "Set-Cookie", headers: ["Cache-Control": "max-age=60", "Set-Cookie": "id=1"],
             expected: ResponseFreshness(lifetime: 60, isStorable: false)),
        Case(name: "Vary *", headers: ["Cache-Control": "max-age=60", "Vary": "Accept, *"],
             expected: ResponseFreshness(lifetime: 60, isStorable: false)),
        Case(name: "Vary on a field", headers: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"],
             expected: ResponseFreshness(lifetime: 60)),
        Case(name: "Authorization without permission", headers: ["Cache-Control": "max-age=60"],
             request: ["Authorization": "Bearer t"], expected: ResponseFreshness(lifetime: 60, isStorable: false)),
        Case(name: "Authorization with public", headers: ["Cache-Control": "public, max-age=60"],
             request: ["Authorization": "Bearer t"], expected: ResponseFreshness(lifetime: 60)),
        Case(name: "Authorization with s-maxage", headers: ["Cache-Control": "s-maxage=30"],
             request: ["Authorization": "Bearer t"], expected: ResponseFreshness(lifetime: 30, mustRevalidate: true)),
        Case(name: "Authorization with must-revalidate", headers: ["Cache-Control": "must-revalidate, max-age=5"],
             request: ["Authorization": "Bearer t"], expected: ResponseFreshness(lifetime: 5, mustRevalidate: true)),
        Case(name: "201 without explicit freshness", status: 201, headers: [:],
             expected: ResponseFreshness(isStorable: false)),
        Case(name: "201 with max-age", status: 201, headers: ["Cache-Control": "max-age=9"],
             expected: ResponseFreshness(lifetime: 9)),
        Case(name: "302 with public", status: 302, headers: ["Cache-Control": "public"],
             expected: ResponseFreshness()),
        Case(name: "307 with Expires", status: 307, headers: ["Date": date, "Expires": text(now + 90)],
             expected: ResponseFreshness(lifetime: 90)),
        Case(name: "206 never, even with max-age", status: 206, headers: ["Cache-Control": "max-age=60"],
             expected: ResponseFreshness(lifetime: 60, isStorable: false)),
        Case(name: "no-cache on 302 is not explicit freshness", status: 302, headers: ["Cache-Control": "no-cache"],
             expected: ResponseFreshness(lifetime: 0, isStorable: false, mustRevalidate: true)),
    ]

    static let lifetimes: [Case] = [
        Case(name: "s-maxage over max-age", headers: ["Cache-Control": "max-age=60, s-maxage=10"],
             expected: ResponseFreshness(lifetime: 10, mustRevalidate: true)),
        Case(name: "max-age over Expires", headers: ["Cache-Control": "max-age=60", "Date": date,
                                                     "Expires": text(now + 600)],
             expected: ResponseFreshness(lifetime: 60)),
        Case(name: "Expires minus Date", headers: ["Date": text(now - 100),
                                                   "Expires": text(now + 200)],
             expected: ResponseFreshness(lifetime: 300, age: 100)),
        Case(name: "Expires without Date counts from receipt", headers: ["Expires": text(now + 45)],
             expected: ResponseFreshness(lifetime: 45)),
        Case(name: "Expires in the past", headers: ["Date": date, "Expires": text(now - 45)],
             expected: ResponseFreshness(lifetime: 0)),
        Case(name: "invalid Expires is already expired", headers: ["Expires": "0"], expected: ResponseFreshness(lifetime: 0)),
        Case(name: "no-cache: stored, lifetime 0", headers: ["Cache-Control": "no-cache, max-age=60"],
             expected: ResponseFreshness(lifetime: 0, mustRevalidate: true)),
        Case(name: "max-age=0", headers: ["Cache-Control": "max-age=0"], expected: ResponseFreshness(lifetime: 0)),
        Case(name: "invalid max-age is stale", headers: ["Cache-Control": "max-age=soon"],
             expected: ResponseFreshness(lifetime: 0)),
        Case(name: "Age counted", headers: ["Cache-Control": "max-age=60", "Age": "25"],
             expected: ResponseFreshness(lifetime: 60, age: 25)),
        // RFC 9111 §1.2.2, §4.2.3: an Age that is not delta-seconds is read conservatively: stale.
        Case(name: "invalid Age is stale", headers: ["Cache-Control": "max-age=60", "Age": "-3"],
             expected: ResponseFreshness(lifetime: 60, age: 2_147_483_648)),
        Case(name: "Age list counts its largest", headers: ["Cache-Control": "max-age=60", "Age": "5, 20"],
             expected: ResponseFreshness(lifetime: 60, age: 20)),
        Case(name: "Age on two lines counts the largest", headers: HTTPHeaders([
                (name: "Cache-Control", value: "max-age=60"), (name: "Age", value: "7"), (name: "Age", value: "3")]),
             expected: ResponseFreshness(lifetime: 60, age: 7)),
        // RFC 9111 §4.2.1: conflicting duplicates are stale.
        Case(name: "two different max-age", headers: ["Cache-Control": "max-age=60, max-age=600"],
             expected: ResponseFreshness(lifetime: 0)),
        Case(name: "two different Expires", headers: HTTPHeaders([
                (name: "Date", value: date), (name: "Expires", value: text(now + 60)),
                (name: "Expires", value: text(now + 90))]),
             expected: ResponseFreshness(lifetime: 0)),
        // RFC 9110 §5.6.7: only the three date forms; anything else is already expired.
        Case(name: "Expires as a number", headers: ["Expires": "3600"], expected: ResponseFreshness(lifetime: 0)),
        Case(name: "Expires in ISO 8601", headers: ["Expires": "2099-01-01T00:00:00Z"],
             expected: ResponseFreshness(lifetime: 0)),
        Case(name: "Expires without GMT", headers: ["Expires": "Thu, 01 Jan 2099 00:00:00"],
             expected: ResponseFreshness(lifetime: 0)),
        // RFC 9213: the targeted field wins over Cache-Control and Expires for this cache.
        Case(name: "CDN-Cache-Control over Cache-Control",
             headers: ["Cache-Control": "no-store", "CDN-Cache-Control": "max-age=600", "Expires": "0"],
             expected: ResponseFreshness(lifetime: 600)),
        Case(name: "CDN-Cache-Control no-store", headers: ["Cache-Control": "max-age=60", "CDN-Cache-Control": "no-store"],
             expected: ResponseFreshness(isStorable: false)),
        Case(name: "empty CDN-Cache-Control is ignored", headers: ["Cache-Control": "max-age=60", "CDN-Cache-Control": ""],
             expected: ResponseFreshness(lifetime: 60)),
        Case(name: "apparent age from Date beats smaller Age",
             headers: ["Cache-Control": "max-age=60", "Age": "5", "Date": text(now - 20)],
             expected: ResponseFreshness(lifetime: 60, age: 20)),
        Case(name: "Date in the future gives no apparent age",
             headers: ["Cache-Control": "max-age=60", "Date": text(now + 500)],
             expected: ResponseFreshness(lifetime: 60)),
        Case(name: "must-revalidate", headers: ["Cache-Control": "max-age=60, must-revalidate"],
             expected: ResponseFreshness(lifetime: 60, mustRevalidate: true)),
        Case(name: "proxy-revalidate", headers: ["Cache-Control": "max-age=60, proxy-revalidate"],
             expected: ResponseFreshness(lifetime: 60, mustRevalidate: true)),
        Case(name: "stale extensions",
             headers: ["Cache-Control": "max-age=60, stale-while-revalidate=30, stale-if-error=600"],
             expected: ResponseFreshness(lifetime: 60, staleWhileRevalidate: 30, staleIfError: 600)),
        Case(name: "must-revalidate cancels stale extensions",
             headers: ["Cache-Control": "max-age=60, must-revalidate, stale-while-revalidate=30, stale-if-error=600"],
             expected: ResponseFreshness(lifetime: 60, mustRevalidate: true)),
    ]

    @Test(arguments: storability + lifetimes)
    func freshness_FollowsRFC9111(_ testCase: Case) {
        let freshness = FreshnessPolicy().freshness(
            status: testCase.status, headers: testCase.headers, requestHeaders: testCase.request,
            requestTime: Self.now, responseTime: Self.now)
        #expect(freshness == testCase.expected)
    }

    /// The same table: `storableFreshness` gives what `freshness` gives, but only for a storable answer.
    @Test(arguments: storability + lifetimes)
    func storableFreshness_IsTheFreshness_OfAStorableAnswerOnly(_ testCase: Case) {
        let freshness = FreshnessPolicy().storableFreshness(
            status: testCase.status, headers: testCase.headers, requestHeaders: testCase.request,
            requestTime: Self.now, responseTime: Self.now)
        #expect(freshness == (testCase.expected.isStorable ? testCase.expected : nil))
    }

    /// The same table, with more fields beside each answer's: given only its
    /// `storabilityFieldNames`, an answer is refused exactly when it is refused given all of them.
    @Test(arguments: storability + lifetimes)
    func storabilityFields_TellARefusal_AsAllFieldsDo(_ testCase: Case) {
        let policy = FreshnessPolicy(targetedField: "Edge-Control")
        for extra: HTTPHeaders in [[:], ["Date": Self.date, "Age": "5", "Last-Modified": Self.date, "X-Other": "1"]] {
            let all = HTTPHeaders(extra.fields + testCase.headers.fields + [HTTPField(name: "edge-control", value: "no-store")])
            for headers in [HTTPHeaders(extra.fields + testCase.headers.fields), all] {
                let deciding = HTTPHeaders(
                    headers.fields.filter { field in
                        policy.storabilityFieldNames.contains { HTTPHeaders.equalsIgnoringCase($0, field.name) }
                    })
                for status in [testCase.status, 206, 500] {
                    func refused(_ headers: HTTPHeaders) -> Bool {
                        policy.storableFreshness(
                            status: status, headers: headers, requestHeaders: testCase.request, requestTime: Self.now,
                            responseTime: Self.now) == nil
                    }
                    #expect(refused(deciding) == refused(headers))
                }
            }
        }
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
            status: 200, headers: ["Cache-Control": "max-age=60", "Date": Self.text(Self.now)],
            requestTime: Self.now + 0.9, responseTime: Self.now + 0.9)
        #expect(freshness.age == 0)
    }

    @Test func age_AddsResponseDelay_ToAgeHeader() {
        let freshness = FreshnessPolicy().freshness(
            status: 200, headers: ["Cache-Control": "max-age=60", "Age": "10"], requestTime: Self.now,
            responseTime: Self.now + 2)
        #expect(freshness.age == 12)
    }

    /// A lone `Cache-Control` line read again (its directives kept from the last reading) reads
    /// as it did, whatever was read between; with a second line, both lines count.
    @Test func control_ReadsEachAnswersOwnLines_WhenALoneLineRepeats() {
        let policy = FreshnessPolicy()
        for _ in 0..<2 {
            #expect(policy.control(of: ["Cache-Control": "max-age=60"]).control.maxAge == 60)
            let twoLines = HTTPHeaders([("Cache-Control", "max-age=60"), ("cache-control", "no-store")])
            #expect(policy.control(of: twoLines).control.noStore)
            #expect(policy.control(of: twoLines).control.maxAge == 60)
            #expect(!policy.control(of: ["Cache-Control": "max-age=60"]).control.noStore)
            #expect(policy.control(of: ["Cache-Control": "max-age=5"]).control.maxAge == 5)
            let targeted = policy.control(of: ["Cache-Control": "max-age=60", "CDN-Cache-Control": "no-store"])
            #expect(targeted.targeted && targeted.control.noStore)
        }
    }

    /// RFC 9213: the targeted field is configurable per repository, e.g. `Surrogate-Control`.
    @Test func targetedField_IsConfigurable() {
        let policy = FreshnessPolicy(targetedField: "Surrogate-Control")
        let headers: HTTPHeaders = [
            "Cache-Control": "max-age=5", "CDN-Cache-Control": "max-age=9", "Surrogate-Control": "max-age=300",
        ]
        let freshness = policy.freshness(status: 200, headers: headers, requestTime: Self.now, responseTime: Self.now)
        #expect(freshness.lifetime == 300)
        #expect(policy.control(of: headers).targeted)
    }

    /// RFC 5861: the upstream's stale windows are bounded by the repository's maxima.
    @Test func staleWindows_AreBoundedByTheCachesMaxima() {
        let policy = FreshnessPolicy(maxStaleWhileRevalidate: 10, maxStaleIfError: 100)
        let freshness = policy.freshness(
            status: 200, headers: ["Cache-Control": "max-age=60, stale-while-revalidate=30, stale-if-error=50"],
            requestTime: Self.now, responseTime: Self.now)
        #expect(freshness.staleWhileRevalidate == 10)
        #expect(freshness.staleIfError == 50)
    }

    /// RFC 9111 §4.2.2: opt-in heuristic freshness, a fraction of `Date` − `Last-Modified`, only for
    /// heuristically cacheable answers without explicit freshness.
    @Test(arguments: [
        (200, ["Last-Modified": text(now - 1_000)], 100.0 as Double?, true),
        (404, ["Last-Modified": text(now - 50)], 5, true),
        (200, ["Last-Modified": text(now - 1_000), "Cache-Control": "max-age=7"], 7, false),
        (200, ["Last-Modified": text(now - 1_000), "Expires": text(now + 9)], 9, false),
        (201, ["Last-Modified": text(now - 1_000)], nil, false),
        (200, [:], nil, false),
    ])
    func heuristic_IsAFractionOfTheTimeSinceLastModified(
        _ status: Int, _ fields: [String: String], _ lifetime: Double?, _ heuristic: Bool
    ) {
        let policy = FreshnessPolicy(heuristicFraction: 0.1)
        var headers = HTTPHeaders(fields.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) })
        headers["Date"] = Self.date
        let freshness = policy.freshness(status: status, headers: headers, requestTime: Self.now, responseTime: Self.now)
        #expect(freshness.lifetime == lifetime)
        #expect(policy.isHeuristic(status: status, headers: headers) == heuristic)
        #expect(FreshnessPolicy().isHeuristic(status: status, headers: headers) == false)
    }
}
