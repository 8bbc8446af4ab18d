import Testing

@testable import HTTP1

struct HTTPKnownFieldNamesTests {
    private func known(_ name: String) -> String? {
        Array(name.utf8).withUnsafeBytes { HTTPKnownFieldNames.name($0) }
    }

    @Test func name_IsTheSharedSpelling_WhenTheBytesMatchOne() {
        for name in ["Host", "ETag", "Date", "Server", "Content-Type", "Content-Length", "Cache-Control",
            "Transfer-Encoding", "If-Modified-Since", "Access-Control-Allow-Origin", "X-Request-ID"]
        {
            #expect(known(name) == name)
        }
    }

    /// Another case, a neighbour of the same length and words, or a longer name that differs only
    /// between its first and last eight bytes, is no known name: it is decoded as received.
    @Test func name_IsNil_WhenAnyByteDiffers() {
        for name in ["host", "HOST", "Hosts", "Hos", "content-type", "Content-Typf", "X-Request-Id",
            "Transfer-Xncoding", "If-Modified-SinCe", "Access-Control-Allow-Xrigin", "Access-Control-Xllow-Origin",
            "", "X-Custom-Field-That-Is-Longer-Than-Any-Known-Name"]
        {
            #expect(known(name) == nil, "\(name)")
        }
    }

    /// The parser keeps every name as received, known or not.
    @Test func parsedNames_KeepTheirSpelling_KnownOrNot() throws {
        var parser = HTTPResponseParser(requestMethod: .get)
        let raw = Array("HTTP/1.1 200 OK\r\nETag: \"a\"\r\netag: \"b\"\r\nX-Thing: 1\r\nContent-Length: 0\r\n\r\n".utf8)
        let result = raw.withUnsafeBytes { parser.parse($0, endOfStream: false) }
        guard case .complete(let response, _) = result else {
            Issue.record("not parsed: \(result)")
            return
        }
        #expect(response.headers.fields.map(\.name) == ["ETag", "etag", "X-Thing", "Content-Length"])
    }
}
