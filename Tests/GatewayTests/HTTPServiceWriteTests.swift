import Foundation
import Gateway
import HTTP1
import RDS
import Testing

struct HTTPServiceWriteTests {
    static let key = ResourceKey(repository: "notes", path: "/notes/1")

    static func makeService(_ transport: ScriptedTransport) -> HTTPService {
        HTTPService(name: "notes", baseURL: URL(string: "http://127.0.0.1:9000")!, transport: transport)
    }

    @Test(arguments: [HTTPMethod.put, .patch, .post])
    func save_ForwardsMethodBodyAndContentType(_ method: HTTPMethod) async throws {
        let transport = ScriptedTransport(status: 204)
        let write = Representation.write(method, body: Array("hello".utf8), contentType: "text/plain")
        let result = try await Self.makeService(transport).save(write, for: Self.key)
        let request = try #require(transport.requests.first)
        #expect(request.method == method)
        #expect(request.target == "/notes/1")
        #expect(request.body == Array("hello".utf8))
        #expect(request.headers["Content-Type"] == "text/plain")
        #expect(result.reply?.status == 204)
        #expect(result.stored == nil)
    }

    @Test func save_UsesPut_WhenMethodIsNil() async throws {
        let transport = ScriptedTransport(status: 204)
        _ = try await Self.makeService(transport).save(Representation(status: 200, body: [1]), for: Self.key)
        #expect(transport.requests.first?.method == .put)
    }

    @Test func save_StoresReply_WhenPutAnswers200WithCacheableBody() async throws {
        let transport = ScriptedTransport(
            status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "max-age=30", "ETag": "\"2\""],
            body: #"{"id":1}"#)
        let result = try await Self.makeService(transport).save(
            .write(.put, body: Array(#"{"id":1}"#.utf8), contentType: "application/json"), for: Self.key)
        let stored = try #require(result.stored)
        #expect(stored.value == result.reply)
        #expect(stored.value.method == nil)
        #expect(stored.freshness.lifetime == 30)
        #expect(stored.validators.etag == "\"2\"")
    }

    static let unstorableReplies: [(Int, HTTPHeaders, String)] = [
        (200, ["Cache-Control": "no-store"], "{}"), (200, [:], ""), (201, [:], "{}"),
        (202, ["Cache-Control": "max-age=5"], "{}"), (200, ["Set-Cookie": "a=1"], "{}"),
    ]

    @Test(arguments: unstorableReplies)
    func save_DropsKey_WhenReplyIsNotStorable(_ status: Int, _ headers: HTTPHeaders, _ body: String) async throws {
        let transport = ScriptedTransport(status: status, headers: headers, body: body)
        let write = Representation.write(.put, body: [1], contentType: nil)
        let result = try await Self.makeService(transport).save(write, for: Self.key)
        #expect(result.reply?.status == status)
        #expect(result.stored == nil)
    }

    @Test func save_StoresPostReply_OnlyWhenContentLocationIsTheTarget() async throws {
        let post = Representation.write(.post, body: [], contentType: nil)
        let elsewhere = ScriptedTransport(
            status: 201, headers: ["Content-Location": "/notes/2", "Cache-Control": "max-age=9"], body: "{}")
        let created = try await Self.makeService(elsewhere).save(post, for: Self.key)
        #expect(created.stored == nil)
        let same = ScriptedTransport(
            status: 200, headers: ["Content-Location": "http://127.0.0.1:9000/notes/1"], body: "{}")
        let updated = try await Self.makeService(same).save(post, for: Self.key)
        #expect(updated.stored?.value.body == Array("{}".utf8))
    }

    @Test func delete_SendsDelete_AndDropsKey() async throws {
        let transport = ScriptedTransport(status: 200, headers: ["Cache-Control": "max-age=60"], body: "gone")
        let result = try await Self.makeService(transport).delete(Self.key)
        #expect(transport.requests.first?.method == .delete)
        #expect(transport.requests.first?.body == [])
        #expect(result.reply?.body == Array("gone".utf8))
        #expect(result.stored == nil)
    }

    /// Issue 9: a 4xx reply to a write is the upstream's answer; only 5xx throws.
    @Test(arguments: [404, 409, 422])
    func save_Returns4xxReply(_ status: Int) async throws {
        let service = Self.makeService(ScriptedTransport(status: status))
        let result = try await service.save(.write(.put, body: [1], contentType: nil), for: Self.key)
        #expect(result.reply?.status == status)
        #expect(result.stored == nil)
        #expect(try await service.delete(Self.key).reply?.status == status)
    }

    @Test func save_ThrowsBadResponse_On5xx() async throws {
        let service = Self.makeService(ScriptedTransport(status: 503))
        let error = await #expect(throws: ServiceError.self) {
            try await service.save(.write(.put, body: [1], contentType: nil), for: Self.key)
        }
        #expect(error?.kind == .badResponse)
        let deleteError = await #expect(throws: ServiceError.self) { try await service.delete(Self.key) }
        #expect(deleteError?.kind == .badResponse)
    }
}
