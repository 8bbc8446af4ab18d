import Foundation
import Gateway
@testable import HTTP1
import RDS
import RDSTesting
import Testing

struct HTTPServiceTests {
    static let baseURL = URL(string: "http://upstream.test:8081/api/v1/")!

    static func makeService(
        _ transport: ScriptedTransport, forwarded: HeaderAllowList = HeaderAllowList(),
        defaultHeaders: HTTPHeaders = [:], clock: ManualClock = ManualClock()
    ) -> HTTPService {
        HTTPService(
            name: "weather", baseURL: baseURL, defaultHeaders: defaultHeaders,
            forwardedHeaders: forwarded, transport: transport, clock: clock)
    }

    static let key = ResourceKey(repository: "weather", path: "/cities/london", query: "units=metric")

    @Test func get_SendsBasePathKeyPathAndQuery_ToEndpoint() async throws {
        let transport = ScriptedTransport(status: 200, body: "{}")
        _ = try await Self.makeService(transport).get(Self.key, ifChangedFrom: nil)
        let request = try #require(transport.requests.first)
        #expect(request.method == .get)
        #expect(request.target == "/api/v1/cities/london?units=metric")
        #expect(request.headers["Host"] == "upstream.test:8081")
        #expect(transport.endpoints == [UpstreamEndpoint(scheme: "http", host: "upstream.test", port: 8081)])
    }

    /// Only an answer that may be stored gets its fields' wire form (a stored answer is replayed
    /// from it) and its validators; one passed through is written field by field, to the same bytes.
    @Test(arguments: [("max-age=60", true), ("no-store", false), ("private, max-age=60", false)])
    func get_GivesTheWireForm_ToAStorableAnswerOnly(cacheControl: String, storable: Bool) async throws {
        let transport = ScriptedTransport(
            status: 200, headers: ["Content-Type": "text/plain", "Cache-Control": cacheControl, "ETag": "\"e\""],
            body: "x")
        let response = try await Self.makeService(transport).get(Self.key, ifChangedFrom: nil)
        guard case .fetched(let fetched) = response else {
            Issue.record("expected a fetched value, got \(response)")
            return
        }
        #expect(fetched.freshness.isStorable == storable)
        #expect((fetched.value.headers.serialized != nil) == storable)
        #expect(fetched.validators == (storable ? Validators(etag: "\"e\"") : Validators()))
        #expect(fetched.value.validators == Validators(etag: "\"e\""))
        #expect(fetched.value.headers["Cache-Control"] == cacheControl)
        let written = HTTPSerializer.head(
            HTTPResponse(status: 200, headers: fetched.value.headers, bytes: fetched.value.body), requestMethod: .get,
            keepAlive: true, date: Array("d".utf8))
        let passedOn = HTTPSerializer.head(
            HTTPResponse(status: 200, headers: fetched.value.withWireForm().headers, bytes: fetched.value.body),
            requestMethod: .get, keepAlive: true, date: Array("d".utf8))
        #expect(written == passedOn)
    }

    @Test func get_CallsTheSameBaseURL_ParsedOnce_AndANewOneWhenTheHostChanges() async throws {
        let transport = ScriptedTransport(status: 200)
        let host = MovingHost(URL(string: "http://one.test/a/")!)
        let service = HTTPService(name: "s", host: host, transport: transport)
        _ = try await service.get(ResourceKey(repository: "r", path: "/x"), ifChangedFrom: nil)
        _ = try await service.get(ResourceKey(repository: "r", path: "/y"), ifChangedFrom: nil)
        host.url.withLock { $0 = URL(string: "http://two.test:81/b?k=1")! }
        _ = try await service.get(ResourceKey(repository: "r", path: "/z"), ifChangedFrom: nil)
        #expect(transport.requests.map(\.target) == ["/a/x", "/a/y", "/b/z?k=1"])
        #expect(transport.endpoints.map(\.description) == ["http://one.test", "http://one.test", "http://two.test:81"])
    }

    @Test func get_KeepsBaseURLPercentEncoding() async throws {
        let transport = ScriptedTransport(status: 200)
        let service = HTTPService(
            name: "s", baseURL: URL(string: "http://h.test/a%20b/?x=%26")!, transport: transport)
        _ = try await service.get(ResourceKey(repository: "r", path: "/c%2Fd"), ifChangedFrom: nil)
        #expect(transport.requests.first?.target == "/a%20b/c%2Fd?x=%26")
    }

    @Test func get_ReturnsRepresentationFreshnessAndValidators() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(
            status: 200,
            headers: [
                "Content-Type": "application/json", "Cache-Control": "max-age=60, stale-if-error=300", "ETag": "\"a\"",
                "Age": "5", "Connection": "keep-alive", "Date": HTTPDate.text(clock.now),
            ], body: #"{"t":1}"#)
        let response = try await Self.makeService(transport, clock: clock).get(Self.key, ifChangedFrom: nil)
        guard case .fetched(let fetched) = response else {
            Issue.record("expected a fetched value, got \(response)")
            return
        }
        #expect(fetched.value.status == 200)
        #expect(fetched.value.body == Array(#"{"t":1}"#.utf8))
        #expect(fetched.value.contentType == "application/json")
        #expect(!fetched.value.headers.contains("Connection"))
        #expect(fetched.freshness == Freshness(lifetime: 60, age: 5, staleIfError: 300))
        #expect(fetched.validators == Validators(etag: "\"a\""))
    }

    @Test func get_SendsStoredValidators_AndAnswersNotModifiedOn304() async throws {
        let transport = ScriptedTransport(status: 304, headers: ["Cache-Control": "max-age=30", "ETag": "\"b\""])
        let stored = Validators(etag: "\"a\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT")
        let response = try await Self.makeService(transport).get(Self.key, ifChangedFrom: stored)
        let request = try #require(transport.requests.first)
        #expect(request.headers["If-None-Match"] == "\"a\"")
        #expect(request.headers["If-Modified-Since"] == "Sun, 06 Nov 1994 08:49:37 GMT")
        guard case .notModifiedRenewing(let renew) = response else {
            Issue.record("expected not modified, got \(response)")
            return
        }
        // RFC 9111 §4.3.4: the stored fields are updated from the 304's.
        let kept = Representation(
            status: 200, headers: ["ETag": "\"a\"", "Cache-Control": "max-age=5", "X-Old": "1"], body: [0x7B, 0x7D])
        let renewed = renew(kept)
        #expect(renewed.value.headers.fields.map(\.name) == ["ETag", "Cache-Control", "X-Old"])
        #expect(renewed.value.headers["ETag"] == "\"b\"")
        #expect(renewed.value.headers["Cache-Control"] == "max-age=30")
        #expect(renewed.value.body == [0x7B, 0x7D])
        #expect(renewed.freshness == Freshness(lifetime: 30))
        #expect(renewed.validators == Validators(etag: "\"b\""))
    }

    /// A 304 changing only the `Date` (and `Server`, which is never replayed) keeps the stored
    /// wire form and validators, and the renewed answer replays the new `Date`.
    @Test func notModified_WithOnlyANewDate_ReplaysIt() async throws {
        let newDate = "Tue, 08 Nov 1994 08:49:37 GMT"
        let transport = ScriptedTransport(
            status: 304,
            headers: ["Date": newDate, "Server": "origin/2", "ETag": "\"a\"", "Cache-Control": "max-age=30"])
        let response = try await Self.makeService(transport).get(Self.key, ifChangedFrom: Validators(etag: "\"a\""))
        guard case .notModifiedRenewing(let renew) = response else {
            Issue.record("expected not modified, got \(response)")
            return
        }
        let kept = Representation(
            status: 200,
            headers: [
                "Date": "Mon, 07 Nov 1994 08:49:37 GMT", "Server": "origin/1", "ETag": "\"a\"",
                "Cache-Control": "max-age=30", "Content-Type": "text/plain",
            ], body: [0x31])
        let renewed = renew(kept).value
        #expect(renewed.headers["Date"] == newDate)
        #expect(renewed.validators == Validators(etag: "\"a\""))
        let head = String(
            decoding: HTTPSerializer.head(
                HTTPResponse(status: 200, headers: renewed.headers, bytes: renewed.body), requestMethod: .get,
                keepAlive: true, date: Array("d".utf8)), as: UTF8.self)
        #expect(head.contains("Date: \(newDate)\r\n") && !head.contains("07 Nov"))
        #expect(head.contains("Content-Type: text/plain\r\n"))
    }

    /// RFC 9213 on a 304: its targeted field governs the renewed entry's freshness, is not kept
    /// among the stored fields, and neither are its hop-by-hop fields.
    @Test func notModified_TargetedFieldGovernsRenewal_AndIsNotKept() async throws {
        let transport = ScriptedTransport(
            status: 304,
            headers: [
                "Cache-Control": "max-age=30", "CDN-Cache-Control": "max-age=600", "Connection": "keep-alive",
                "X-New": "1",
            ])
        let response = try await Self.makeService(transport).get(Self.key, ifChangedFrom: Validators(etag: "\"a\""))
        guard case .notModifiedRenewing(let renew) = response else {
            Issue.record("expected not modified, got \(response)")
            return
        }
        let kept = Representation(status: 200, headers: ["ETag": "\"a\"", "Cache-Control": "max-age=5"], body: [0x31])
        let renewed = renew(kept)
        #expect(renewed.freshness.lifetime == 600)
        #expect(renewed.value.headers.fields.map(\.name) == ["ETag", "Cache-Control", "X-New"])
        #expect(renewed.value.headers["Cache-Control"] == "max-age=30")
        #expect(renewed.validators == Validators(etag: "\"a\""))
    }

    @Test func get_FailsWithBadResponse_On304ToUnconditionalRequest() async throws {
        let service = Self.makeService(ScriptedTransport(status: 304))
        let error = await #expect(throws: ServiceError.self) { try await service.get(Self.key, ifChangedFrom: nil) }
        #expect(error?.kind == .badResponse)
    }

    /// Issue 9: any answer the upstream sent below 500 is an answer, with its status and body.
    @Test(arguments: [400, 401, 403, 404, 410, 422, 429])
    func get_Returns4xx_AsTheUpstreamsAnswer(_ status: Int) async throws {
        let service = Self.makeService(ScriptedTransport(status: status, body: "nope"))
        guard case .fetched(let fetched) = try await service.get(Self.key, ifChangedFrom: nil) else {
            Issue.record("expected an answer")
            return
        }
        #expect(fetched.value.status == status)
        #expect(fetched.value.body == Array("nope".utf8))
    }

    @Test(arguments: [500, 502, 503, 999])
    func get_Maps5xx_ToBadResponse_WrappingTheUpstreamReply(_ status: Int) async throws {
        let service = Self.makeService(ScriptedTransport(status: status, body: "nope"))
        let error = await #expect(throws: ServiceError.self) { try await service.get(Self.key, ifChangedFrom: nil) }
        #expect(error?.kind == .badResponse)
        #expect(error?.details["status"] == String(status))
        #expect(error?.details["service"] == "weather")
        let reply = error?.inner as? UpstreamReply
        #expect(reply?.details == ["status": String(status), "body": "nope"])
    }

    @Test func upstreamReply_QuotesABoundedExcerpt() {
        let reply = UpstreamReply(Representation(status: 500, body: [UInt8](repeating: 0x61, count: 10_000)))
        #expect(reply.details["body"]?.utf8.count ?? 0 <= UpstreamReply.excerptLimit + 3)
    }

    @Test(arguments: [
        (TransportError.Kind.timeout, ServiceError.Kind.timeout), (.refused, .unavailable), (.failed, .unavailable),
        (.malformedResponse, .badResponse),
    ])
    func get_WrapsTransportError_InServiceErrorKind(_ transportKind: TransportError.Kind, _ kind: ServiceError.Kind)
        async throws
    {
        let service = Self.makeService(ScriptedTransport(failing: TransportError(transportKind, "boom")))
        let error = await #expect(throws: ServiceError.self) { try await service.get(Self.key, ifChangedFrom: nil) }
        #expect(error?.kind == kind)
        #expect((error?.inner as? TransportError)?.kind == transportKind)
        #expect(ErrorChain(try #require(error)).links.map(\.code) == [kind.rawValue, transportKind.rawValue])
    }

    @Test func get_ThrowsCancellation_WhenTransportReportsCancelled() async throws {
        let service = Self.makeService(ScriptedTransport(failing: TransportError(.cancelled, "gone")))
        await #expect(throws: CancellationError.self) { try await service.get(Self.key, ifChangedFrom: nil) }
    }

    @Test func get_ThrowsCancellation_WithoutCalling_WhenTaskAlreadyCancelled() async throws {
        let transport = ScriptedTransport(status: 200)
        let service = Self.makeService(transport)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await service.get(Self.key, ifChangedFrom: nil)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(transport.requests.isEmpty)
    }
}
