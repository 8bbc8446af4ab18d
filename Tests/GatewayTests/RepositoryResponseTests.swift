import Foundation
import HTTP1
import RDS
import Testing

@testable import Gateway

struct RepositoryResponseTests {
    static let now = Date(timeIntervalSince1970: 1_000_000)
    static let entry = CacheEntry(
        value: Representation(status: 200, body: [1]), storedAt: now, expiresAt: now.addingTimeInterval(42))

    static func answer(_ status: CacheStatus, entry: CacheEntry<Representation>? = entry, error: (any Error)? = nil)
        -> RepositoryAnswer<Representation>
    {
        RepositoryAnswer(value: Representation(status: 200, body: [1]), entry: entry, cacheStatus: status, error: error)
    }

    /// RFC 9211: each way an answer is served names itself, its forward and its entry's `ttl`.
    @Test(arguments: [
        (CacheStatus.hit, "rds-gateway; hit; ttl=42"),
        (.stale, "rds-gateway; hit; ttl=42"),
        (.miss, "rds-gateway; fwd=miss; stored; ttl=42"),
        (.revalidated, "rds-gateway; fwd=stale; fwd-status=304; stored; ttl=42"),
        (.bypass, "rds-gateway; fwd=miss; ttl=42"),
    ])
    func cacheStatus_NamesHowTheStoredAnswerWasServed(status: CacheStatus, expected: String) {
        let value = RepositoryResponse.cacheStatus(Self.answer(status), now: Self.now, forwardedOnRequest: false)
        #expect(value == expected)
    }

    /// A client's `no-cache` forwards the request; an answer without an entry has no `ttl`.
    @Test func cacheStatus_NamesTheRequestForward_AndLeavesOutTTLWithoutEntry() {
        let forced = RepositoryResponse.cacheStatus(Self.answer(.revalidated), now: Self.now, forwardedOnRequest: true)
        #expect(forced == "rds-gateway; fwd=request; fwd-status=304; stored; ttl=42")
        let bypass = RepositoryResponse.cacheStatus(
            Self.answer(.bypass, entry: nil), now: Self.now, forwardedOnRequest: false)
        #expect(bypass == "rds-gateway; fwd=miss")
    }

    /// A hit's value is the same whether made or kept (``RepositoryResponse/hitValue(ttl:)``),
    /// at either end of the kept `ttl` values and outside them (negative, or beyond).
    @Test(arguments: [0, 1, 598, RepositoryResponse.keptHitValues - 1, RepositoryResponse.keptHitValues, -1, 86_400])
    func hitValue_IsTheHitsCacheStatus_MadeOrKept(ttl: Int) {
        let expected = "rds-gateway; hit; ttl=\(ttl)"
        #expect(RepositoryResponse.hitValue(ttl: ttl) == expected)
        #expect(RepositoryResponse.hitValue(ttl: ttl) == expected)
        let entry = CacheEntry(
            value: Representation(status: 200, body: [1]), storedAt: Self.now,
            expiresAt: Self.now.addingTimeInterval(Double(ttl) + 0.5))
        #expect(RepositoryResponse.cacheStatus(Self.answer(.hit, entry: entry), now: Self.now, forwardedOnRequest: false) == expected)
    }

    /// A hit's `ttl` and `Age` digits are written into the value's own string, of any sign and length.
    @Test(arguments: [
        ("rds-gateway; hit; ttl=", 0, "rds-gateway; hit; ttl=0"), ("", 7, "7"), ("ttl=", -3, "ttl=-3"),
        ("x", 1_234_567_890, "x1234567890"), ("", Int.min, "\(Int.min)"), ("-", Int.max, "-\(Int.max)"),
    ])
    func joining_WritesThePrefixAndTheNumbersDigits(prefix: String, number: Int, expected: String) {
        #expect(RepositoryResponse.joining(prefix, number) == expected)
    }

    /// An `Age` value is the age's digits whether kept or made (``RepositoryResponse/ageValue(_:)``).
    @Test(arguments: [0, 9, 10, RepositoryResponse.keptAgeValues - 1, RepositoryResponse.keptAgeValues, 86_400])
    func ageValue_IsTheAgesDigits_KeptOrMade(age: Int) {
        #expect(RepositoryResponse.ageValue(age) == String(age))
    }

    /// A hit replaces the stored `Age`, `X-Cache` and `Cache-Status` (any case) and drops
    /// `Set-Cookie` and `X-Request-ID`; fields of stored answers without them are appended, once each.
    @Test(arguments: [
        [
            "age": "3", "x-cache": "MISS from upstream", "CACHE-STATUS": "upstream; hit", "Set-Cookie": "id=1",
            "x-request-id": "another-request",
        ],
        ["X-Request-ID": "another-request", "Content-Type": "text/plain"],
        ["Content-Type": "text/plain"],
    ] as [HTTPHeaders])
    func make_ReplacesTheFieldsAHitServes_OnceEach(stored: HTTPHeaders) {
        let value = Representation(status: 200, headers: stored, body: [1])
        let entry = CacheEntry(value: value, storedAt: Self.now, expiresAt: Self.now.addingTimeInterval(42))
        let answer = RepositoryAnswer(value: value, entry: entry, cacheStatus: .hit)
        let response = RepositoryResponse.make(
            answer, request: HTTPRequest(method: .get, target: "/x"), now: Self.now.addingTimeInterval(2))
        #expect(response.headers.values(for: "Age") == ["2"])
        #expect(response.headers.values(for: "X-Cache") == ["HIT"])
        #expect(response.headers.values(for: "Cache-Status") == ["rds-gateway; hit; ttl=40"])
        let all = response.allHeaders
        #expect(!all.contains("Set-Cookie") && !all.contains("X-Request-ID"))
        let replaced = stored.contains("Set-Cookie") ? 4 : 0
        #expect(all.count == stored.count + 3 - replaced - (stored.contains("X-Request-ID") ? 1 : 0))
        #expect(all.values(for: "Age") == ["2"] && !all.contains("X-Request-ID"))
    }

    /// A hit whose stored fields all stay shares them with the cache (``HTTPResponse/storedHeaders``),
    /// adding its own after them; one that replaces or drops a stored field copies them.
    @Test func make_SharesTheStoredFields_UnlessOneChanges() {
        let fields: HTTPHeaders = ["Content-Type": "text/plain", "ETag": "\"1\""]
        let stored = fields.withSerializedFields()
        let value = Representation(status: 200, headers: stored, body: [1])
        let entry = CacheEntry(value: value, storedAt: Self.now, expiresAt: Self.now.addingTimeInterval(42))
        let answer = RepositoryAnswer(value: value, entry: entry, cacheStatus: .hit)
        let request = HTTPRequest(method: .get, target: "/x")
        let shared = RepositoryResponse.make(answer, request: request, now: Self.now)
        #expect(shared.storedHeaders == value.headers)
        #expect(shared.headers.fields.map(\.name) == ["Age", "X-Cache", "Cache-Status"])
        let replaced = RepositoryResponse.make(answer, request: request, now: Self.now, downstreamCacheControl: "no-store")
        #expect(replaced.storedHeaders == nil)
        let names = ["Content-Type", "ETag", "Age", "Cache-Control", "X-Cache", "Cache-Status"]
        #expect(replaced.headers.fields.map(\.name) == names)
        let notModified = RepositoryResponse.make(
            answer, request: HTTPRequest(method: .get, target: "/x", headers: ["If-None-Match": "\"1\""]), now: Self.now)
        #expect(notModified.status == 304 && notModified.storedHeaders == nil)
        #expect(notModified.headers.fields.map(\.name) == ["ETag", "Age", "X-Cache", "Cache-Status"])
    }

    /// The repository's tag field is removed whatever its case, among fields of the same length
    /// and first letter or not.
    @Test(arguments: ["Surrogate-Key", "surrogate-key", "Cache-Tag"])
    func make_RemovesTheHiddenTagField(field: String) {
        let stored: HTTPHeaders = [field: "a b", "Last-Modified": "x", "Sxxxxxxxx-Key": "kept", "ETag": "\"1\""]
        let value = Representation(status: 200, headers: stored, body: [1])
        let entry = CacheEntry(value: value, storedAt: Self.now, expiresAt: Self.now.addingTimeInterval(42))
        let answer = RepositoryAnswer(value: value, entry: entry, cacheStatus: .hit)
        let hidden = field == "Cache-Tag" ? "Cache-Tag" : "Surrogate-Key"
        let response = RepositoryResponse.make(
            answer, request: HTTPRequest(method: .get, target: "/x"), now: Self.now, hiddenField: hidden)
        #expect(!response.allHeaders.contains(field))
        #expect(response.allHeaders["Sxxxxxxxx-Key"] == "kept")
        let plain = RepositoryResponse.make(
            RepositoryAnswer(value: Representation(status: 200, headers: ["ETag": "\"1\""], body: [1]), entry: entry,
                cacheStatus: .hit),
            request: HTTPRequest(method: .get, target: "/x"), now: Self.now, hiddenField: hidden)
        #expect(plain.allHeaders["ETag"] == "\"1\"")
    }
}
