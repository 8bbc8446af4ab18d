import Foundation
import HTTP1
import Synchronization
import Testing

@testable import Gateway

/// `auth.bearer` from a mounted secret file: the file is read again when it changes, and a 401 is
/// retried only when the file now holds another token.
@Suite(.timeLimit(.minutes(1)))
struct EndToEndBearerTokenTests {
    @Test func rotatedTokenFile_IsSentFromTheNextCall_AndA401IsRetriedOnlyAfterARotation() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("token-one\n".utf8).write(to: file)
        let accepted = Mutex("token-one")
        let upstream = try await EndToEndUpstream.start()
        for id in 1...4 {
            upstream.on("/items/\(id)") { request, _ in
                request.headers["Authorization"] == "Bearer \(accepted.withLock { $0 })"
                    ? EndToEndUpstream.Reply(headers: ["Cache-Control": "no-store"], body: "{}")
                    : EndToEndUpstream.Reply(status: 401)
            }
        }
        let gateway = try await EndToEndGateway.start(
            services: ["up": ServiceSettings(baseURL: upstream.baseURL, auth: AuthSettings(bearer: .file(file.path)))],
            repositories: ["items": RepositorySettings(route: "/items/{id}", service: "up")])
        defer {
            Task {
                await gateway.stop()
                await upstream.stop()
            }
        }
        #expect(try await gateway.get("/items/1").status == 200)

        // Rotated before the call: the new token is sent at once.
        accepted.withLock { $0 = "token-two" }
        try Data("token-two\n".utf8).write(to: file)
        #expect(try await gateway.get("/items/2").status == 200)
        #expect(upstream.requests("/items/2").map { $0.headers["Authorization"] } == ["Bearer token-two"])

        // The upstream moved on but the file did not: the 401 is the answer, without a retry.
        accepted.withLock { $0 = "token-three" }
        #expect(try await gateway.get("/items/3").status == 401)
        #expect(upstream.calls("/items/3") == 1)
    }
}
