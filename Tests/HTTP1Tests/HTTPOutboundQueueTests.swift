import Glibc
import Sockets
import Testing

@testable import HTTP1

/// The outbound queue writes bodies from the storage it was given, several segments per `writev`.
@Suite(.timeLimit(.minutes(1)))
struct HTTPOutboundQueueTests {
    static func baseAddress(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { Int(bitPattern: $0.baseAddress) }
    }

    @Test func append_KeepsTheCallersStorage_WithoutCopying() {
        let body = [UInt8](repeating: 0x62, count: 1 << 20)
        var queue = HTTPOutboundQueue()
        queue.append(Array("head".utf8))
        queue.append(body)
        #expect(queue.count == 4 + body.count)
        #expect(queue.segments.map(Self.baseAddress).contains(Self.baseAddress(body)))
    }

    @Test func smallSegments_AreJoined_SoPipelinedAnswersFitOneWrite() {
        var queue = HTTPOutboundQueue()
        for _ in 0..<100 { queue.append([UInt8](repeating: 0x61, count: 100)) }
        #expect(queue.count == 10_000)
        #expect(queue.segments.count <= HTTPOutboundQueue.maxSegmentsPerWrite)
    }

    /// A body queued unjoined (a cached one, by reference) keeps its storage, and the next
    /// answer's head is not joined to it (which would copy the shared body); all leave in one `writev`.
    @Test func appendUnjoined_KeepsTheBodysStorage_AndTheNextHeadApart() throws {
        let (writer, reader) = try Socket.makePair()
        defer {
            writer.close()
            reader.close()
        }
        let body = [UInt8](repeating: 0x62, count: HTTPOutboundQueue.copiedBodyBytes + 1)
        var queue = HTTPOutboundQueue()
        queue.append(Array("head1".utf8))
        queue.append(unjoined: body)
        queue.append(Array("head2".utf8))
        queue.append(Array("!".utf8))
        #expect(queue.segments.count == 3)
        #expect(Self.baseAddress(queue.segments[1]) == Self.baseAddress(body))
        #expect(queue.send(to: writer) == .sent(body.count + 11))
        var buffer = [UInt8](repeating: 0, count: 2_048)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(reader.fd, $0.baseAddress, $0.count) }
        #expect(Array(buffer[..<count]) == Array("head1".utf8) + body + Array("head2!".utf8))
    }

    @Test func send_WritesHeadAndSmallBodyInOneCall() throws {
        let (writer, reader) = try Socket.makePair()
        defer {
            writer.close()
            reader.close()
        }
        var queue = HTTPOutboundQueue()
        queue.append(Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
        queue.append(Array("hello".utf8))
        #expect(queue.send(to: writer) == .sent(24))
        #expect(queue.isEmpty)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(reader.fd, $0.baseAddress, $0.count) }
        #expect(String(decoding: buffer[..<count], as: UTF8.self) == "HTTP/1.1 200 OK\r\n\r\nhello")
    }

    @Test func partialSends_DeliverEveryByteInOrder() throws {
        let (writer, reader) = try Socket.makePair()
        defer {
            writer.close()
            reader.close()
        }
        let segments = (0..<40).map { index in [UInt8](repeating: UInt8(index), count: 1 + index * 7_919) }
        var queue = HTTPOutboundQueue()
        for segment in segments { queue.append(segment) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while !queue.isEmpty {
            _ = queue.send(to: writer)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(reader.fd, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                received += buffer[..<count]
            }
        }
        #expect(received == segments.flatMap { $0 })
    }

    /// Many clients that do not read a large body: every connection's queue holds the handler's
    /// own array, so the process holds one copy of the body, not one per response.
    @Test func slowReaders_OfOneBody_ShareItsStorage() async throws {
        let body = [UInt8](repeating: 0x78, count: 4 << 20)
        let handler = ClosureHTTPHandler { _ in HTTPResponse(status: 200, bytes: body) } handle: { _ in
            HTTPResponse(status: 500)
        }
        let readers = try await OpenConnections.start(
            count: 8, handler: handler, request: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        defer { readers.close() }
        let queued = await readers.outboundSegments()
        #expect(queued.count == 8)
        for segments in queued {
            #expect(segments.contains(Self.baseAddress(body)))
        }
    }
}
