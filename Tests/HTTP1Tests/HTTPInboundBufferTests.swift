import Testing

@testable import HTTP1

struct HTTPInboundBufferTests {
    static func append(_ text: String, to buffer: inout HTTPInboundBuffer) {
        Array(text.utf8).withUnsafeBytes { buffer.append($0) }
    }

    static func text(_ buffer: HTTPInboundBuffer) -> String {
        buffer.snapshot().withBytes { String(decoding: $0, as: UTF8.self) }
    }

    @Test func consume_DropsParsedPrefix_AndKeepsTheRestInOrder() {
        var buffer = HTTPInboundBuffer()
        Self.append("abcdef", to: &buffer)
        buffer.consume(2, of: buffer.snapshot())
        Self.append("gh", to: &buffer)
        #expect(Self.text(buffer) == "cdefgh")
        #expect(buffer.count == 6)
    }

    @Test func consume_OfASnapshotTakenBeforeDiscard_IsIgnored() {
        var buffer = HTTPInboundBuffer()
        Self.append("abcdef", to: &buffer)
        let snapshot = buffer.snapshot()
        buffer.discard()
        buffer.consume(6, of: snapshot)
        #expect(buffer.isEmpty)
        Self.append("xy", to: &buffer)
        buffer.consume(6, of: snapshot)
        #expect(Self.text(buffer) == "xy")
    }

    @Test func consume_NeverPassesTheEnd() {
        var buffer = HTTPInboundBuffer()
        Self.append("abc", to: &buffer)
        buffer.consume(100, of: buffer.snapshot())
        #expect(buffer.isEmpty)
    }

    @Test func consume_CompactsALongParsedPrefix_WithoutLosingBytes() {
        var buffer = HTTPInboundBuffer()
        let request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
        for _ in 0..<1_000 { Self.append(request, to: &buffer) }
        for remaining in stride(from: 999, through: 1, by: -1) {
            buffer.consume(request.utf8.count, of: buffer.snapshot())
            #expect(buffer.count == remaining * request.utf8.count)
        }
        #expect(Self.text(buffer) == request)
    }
}
