import Testing

@testable import Gateway

struct ServerSentEventParserTests {
    @Test func events_AreParsedWhateverTheSplit() {
        let text = "retry: 250\n: comment\nid: 3\nevent: change\ndata: {\"a\":\ndata: 1}\n\ndata: x\r\n\r\n"
        let bytes = Array(text.utf8)
        for split in 0...bytes.count {
            var parser = ServerSentEventParser()
            let events = parser.feed(bytes[..<split]) + parser.feed(bytes[split...])
            #expect(
                events == [
                    ServerSentEventParser.Event(id: "3", name: "change", data: "{\"a\":\n1}"),
                    ServerSentEventParser.Event(id: nil, name: "message", data: "x"),
                ])
            #expect(parser.retry == 250)
        }
    }

    @Test func chunkedFraming_IsRemovedWhateverTheSplit() {
        let bytes = Array("5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\n\r\n".utf8)
        for split in 0...bytes.count {
            var decoder = ChunkedBodyDecoder()
            let first = decoder.feed(bytes[..<split]) ?? []
            let second = decoder.feed(bytes[split...]) ?? []
            #expect(String(decoding: first + second, as: UTF8.self) == "hello, world")
            #expect(decoder.isDone)
        }
        var bad = ChunkedBodyDecoder()
        #expect(bad.feed(Array("zz\r\n".utf8)) == nil)
    }
}
