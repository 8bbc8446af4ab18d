import HTTP1
import Testing

@testable import Gateway

struct RouterAdminAccessTests {
    @Test func refusal_AllowsOnlyLoopback_WhenNoTokenIsSet() {
        let access = AdminAccess(token: nil)
        #expect(access.refusal(for: HTTPRequest(method: .get, target: "/admin", remoteAddress: "127.0.0.1")) == nil)
        #expect(access.refusal(for: HTTPRequest(method: .get, target: "/admin", remoteAddress: "::1")) == nil)
        #expect(
            access.refusal(for: HTTPRequest(method: .get, target: "/admin", remoteAddress: "10.0.0.7"))?.kind
                == .forbidden)
        #expect(access.refusal(for: HTTPRequest(method: .get, target: "/admin"))?.kind == .forbidden)
    }

    @Test func refusal_NeedsTheToken_EvenFromLoopback_WhenOneIsSet() {
        let access = AdminAccess(token: "t0ken")
        let remote = HTTPRequest(
            method: .get, target: "/admin", headers: ["Authorization": "Bearer t0ken"], remoteAddress: "10.0.0.7")
        #expect(access.refusal(for: remote) == nil)
        let local = HTTPRequest(method: .get, target: "/admin", remoteAddress: "127.0.0.1")
        #expect(access.refusal(for: local)?.kind == .unauthorized)
    }

    @Test func constantTimeEquals_ComparesContentAndLength() {
        #expect(AdminAccess.constantTimeEquals(Array("abc".utf8), Array("abc".utf8)))
        #expect(!AdminAccess.constantTimeEquals(Array("abc".utf8), Array("abd".utf8)))
        #expect(!AdminAccess.constantTimeEquals(Array("abc".utf8), Array("abcd".utf8)))
        #expect(!AdminAccess.constantTimeEquals([], Array("a".utf8)))
    }
}
