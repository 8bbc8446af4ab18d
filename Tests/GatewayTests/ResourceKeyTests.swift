import Gateway
import HTTP1
import RDS
import Testing

struct ResourceKeyTests {
    @Test func init_SortsQueryByName_KeepingOrderOfRepeatedNames() {
        let key = ResourceKey(repository: "r", path: "items", query: "z=1&a=2&&m=3&a=1")
        #expect(key.path == "/items")
        #expect(key.query == "a=2&a=1&m=3&z=1")
        #expect(key.target == "/items?a=2&a=1&m=3&z=1")
    }

    @Test func init_LowercasesHeaderNames_AndJoinsDuplicates() {
        let key = ResourceKey(repository: "r", path: "/", headers: ["Accept": "a", "ACCEPT": "b"])
        #expect(key.headers.count == 1)
        #expect(key.headers["accept"] == "a, b" || key.headers["accept"] == "b, a")
    }

    @Test func equality_IgnoresParameterAndHeaderOrder() throws {
        let one = ResourceKey(repository: "r", path: "/x", query: "b=2&a=1", headers: ["Accept": "json", "X-A": "1"])
        let two = ResourceKey(repository: "r", path: "/x", query: "a=1&b=2", headers: ["x-a": "1", "accept": "json"])
        #expect(one == two)
        #expect(one.hashValue == two.hashValue)
        #expect(try one.encodedBytes() == two.encodedBytes())
    }

    @Test func rawHashValue_IsEqualForEqualKeys_FollowsTheSeed_AndSpreadsKeysApart() {
        let key = ResourceKey(repository: "r", path: "/x", query: "a=1")
        let equal = ResourceKey(repository: "r", path: "/x", query: "a=1")
        let seeds = [0, 1, 42, -7]
        for seed in seeds { #expect(key._rawHashValue(seed: seed) == equal._rawHashValue(seed: seed)) }
        #expect(Set(seeds.map { key._rawHashValue(seed: $0) }).count == seeds.count)
        // The low bits, which pick a table's bucket, tell a thousand keys apart nearly always.
        let keys = (0..<1_000).map { ResourceKey(repository: "r", path: "/items/\($0)") }
        #expect(Set(keys.map { $0._rawHashValue(seed: 0) & 0xFFFF_FFFF }).count >= 999)
        let table = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        #expect(keys.indices.allSatisfy { table[ResourceKey(repository: "r", path: "/items/\($0)")] == $0 })
    }

    @Test func keysWithoutAQuery_AreEqualAndHashAlike_HoweverTheirQueryWasEmpty() {
        let keys = [nil, "", "&&"].map { ResourceKey(repository: "r", path: "/x", query: $0) }
        #expect(Set(keys.map(\.hashValue)).count == 1)
        #expect(Set(keys).count == 1)
        let queried = ResourceKey(repository: "r", path: "/x", query: "a=1")
        #expect(Set(keys + [queried, ResourceKey(repository: "r", path: "/x?a=1")]).count == 3)
    }

    @Test func equality_KeepsVariantsApart_WhenForwardedHeaderDiffers() {
        let rules = CacheKeyRules(headers: HeaderAllowList(["Accept-Language"]))
        let english = rules.key(repository: "r", path: "/p", query: nil, requestHeaders: ["Accept-Language": "en"])
        let french = rules.key(repository: "r", path: "/p", query: nil, requestHeaders: ["Accept-Language": "fr"])
        #expect(english != french)
    }

    @Test func cacheKeyRules_KeepOnlyAdmittedParameters_ComparingDecodedNames() {
        let rules = CacheKeyRules(queryParameters: .only(["q", "page size"]))
        let key = rules.key(repository: "r", path: "/s", query: "utm=x&q=a%20b&page%20size=2&page+size=3",
                            requestHeaders: [:])
        #expect(key.query == "page%20size=2&page+size=3&q=a%20b")
        #expect(CacheKeyRules(queryParameters: .none).key(repository: "r", path: "/s", query: "q=1",
                                                          requestHeaders: [:]).query == "")
    }

    @Test func cacheKeyRules_NeverKeepHopByHopConditionalOrCredentialHeaders() {
        let rules = CacheKeyRules(headers: HeaderAllowList(
            ["Accept", "Connection", "TE", "Proxy-Authorization", "If-None-Match", "Cookie", "Authorization", "X-Id"]))
        let request: HTTPHeaders = [
            "Accept": "json", "Connection": "keep-alive, X-Id", "TE": "trailers", "Proxy-Authorization": "p",
            "If-None-Match": "\"1\"", "Cookie": "c=1", "Authorization": "Bearer t", "X-Id": "7",
        ]
        let key = rules.key(repository: "r", path: "/", query: nil, requestHeaders: request)
        #expect(key.headers == ["accept": "json"])
    }

    @Test func cacheKeyRules_KeepCredentials_WhenRepositoryAllows() {
        let rules = CacheKeyRules(headers: HeaderAllowList(["Authorization"], allowingCredentials: true))
        let key = rules.key(repository: "r", path: "/", query: nil, requestHeaders: ["Authorization": "Bearer t"])
        #expect(key.headers == ["authorization": "Bearer t"])
        #expect(!key.description.contains("Bearer"))
    }

    @Test func description_NamesQueryParametersAndHeaders_WithoutTheirValues() {
        let key = ResourceKey(
            repository: "r", path: "/s", query: "token=s3cret&q=london&flag", headers: ["X-Api-Token": "t0ken"])
        #expect(key.description == "r /s?flag&q&token [x-api-token]")
        #expect(ResourceKey(repository: "r", path: "/s").description == "r /s")
    }

    @Test func coding_RoundTrips() throws {
        let key = ResourceKey(repository: "wéather", path: "/a/b%20c", query: "x=1&y=", headers: ["accept": "*/*"])
        #expect(try ResourceKey(decodingBytes: key.encodedBytes()) == key)
        #expect(key.byteCount > 0)
    }

    @Test func decoding_Throws_ForTruncatedOrForeignBytes() throws {
        let bytes = try ResourceKey(repository: "r", path: "/p", query: "a=1", headers: ["h": "v"]).encodedBytes()
        for length in 0..<bytes.count {
            #expect(throws: DatastoreError.self) { try ResourceKey(decodingBytes: Array(bytes[..<length])) }
        }
        #expect(throws: DatastoreError.self) { try ResourceKey(decodingBytes: bytes + [0]) }
        #expect(throws: DatastoreError.self) { try ResourceKey(decodingBytes: Array("GET /p".utf8)) }
    }
}
