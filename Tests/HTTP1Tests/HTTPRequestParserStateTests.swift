import HTTP1
import Testing

/// The parser's signals to the server between reads: body in progress, `100 Continue`, failure.
struct HTTPRequestParserStateTests {
    static let expectHead = Array(
        "PUT /n HTTP/1.1\r\nHost: x\r\nExpect: 100-Continue\r\nContent-Length: 4\r\n\r\n".utf8)

    @Test func takeContinueExpectation_IsTrueOnce_WhenHeadAsksAndBodyMissing() {
        var parser = HTTPRequestParser()
        let beforeHead = parser.takeContinueExpectation()
        #expect(beforeHead == false)
        guard case .incomplete = parser.parse(Self.expectHead) else {
            Issue.record("expected .incomplete")
            return
        }
        #expect(parser.isReadingBody)
        let afterHead = parser.takeContinueExpectation()
        #expect(afterHead)
        let again = parser.takeContinueExpectation()
        #expect(again == false)
        guard case .complete(let request, let consumed) = parser.parse(Self.expectHead + Array("body".utf8)) else {
            Issue.record("expected .complete")
            return
        }
        #expect(request.body == Array("body".utf8))
        #expect(consumed == Self.expectHead.count + 4)
        #expect(parser.isReadingBody == false)
    }

    @Test(arguments: [
        "PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\n",
        "PUT / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n",
    ])
    func takeContinueExpectation_IsFalse_WithoutExpectOrForHTTP10(_ head: String) {
        var parser = HTTPRequestParser()
        _ = parser.parse(Array(head.utf8))
        #expect(parser.isReadingBody)
        let taken = parser.takeContinueExpectation()
        #expect(taken == false)
    }

    @Test func takeContinueExpectation_IsTrueAgain_ForTheNextRequest() {
        var parser = HTTPRequestParser()
        _ = parser.parse(Self.expectHead)
        let first = parser.takeContinueExpectation()
        #expect(first)
        _ = parser.parse(Self.expectHead + Array("body".utf8))
        _ = parser.parse(Self.expectHead)
        let second = parser.takeContinueExpectation()
        #expect(second)
    }

    @Test func isReadingBody_IsFalse_WhileHeadIncomplete() {
        var parser = HTTPRequestParser()
        _ = parser.parse(Array("GET / HTTP/1.1\r\nHost:".utf8))
        #expect(parser.isReadingBody == false)
    }

    @Test func parse_StaysFailed_AfterAnError() {
        var parser = HTTPRequestParser()
        let first = parser.parse(Array("GET / HTTP/3.0\r\n\r\n".utf8))
        let second = parser.parse(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        guard case .invalid(let error) = first, case .invalid(let again) = second else {
            Issue.record("expected two errors, got \(first), \(second)")
            return
        }
        #expect(error.status == 505)
        #expect(again == error)
    }

    @Test func parse_ReportsConsumed_AndLeavesPipelinedBytes() {
        var parser = HTTPRequestParser()
        let first = Array("GET /1 HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        let buffer = first + Array("GET /2 HTTP/1.1\r\nHo".utf8)
        guard case .complete(let request, let consumed) = parser.parse(buffer) else {
            Issue.record("expected .complete")
            return
        }
        #expect(request.target == "/1")
        #expect(consumed == first.count)
        guard case .incomplete = parser.parse(buffer[consumed...]) else {
            Issue.record("expected .incomplete for the partial second request")
            return
        }
    }

    @Test func parseError_DescribesCodeAndStatus() {
        var parser = HTTPRequestParser()
        guard case .invalid(let error) = parser.parse(Array("GET / HTTP/1.1\r\nA : b\r\n\r\n".utf8)) else {
            Issue.record("expected .invalid")
            return
        }
        #expect(error.code == .whitespaceBeforeColon)
        #expect(error.description == "whitespace_before_colon: \(error.message) (400)")
    }
}
