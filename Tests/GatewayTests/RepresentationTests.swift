import Gateway
import HTTP1
import RDS
import Testing

struct RepresentationTests {
    static let sample = Representation(
        status: 200,
        headers: [
            "Content-Type": "application/json", "Connection": "close", "ETag": "\"v1\"", "Set-Cookie": "id=1",
            "Transfer-Encoding": "chunked", "Cache-Control": "max-age=60", "Vary": "Accept", "X-Other": "1",
            "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT",
        ],
        body: Array(#"{"temp":21}"#.utf8))

    @Test func init_KeepsOnlyContentHeaders_InOrder() {
        let names = Self.sample.headers.fields.map(\.name)
        #expect(names == ["Content-Type", "ETag", "Cache-Control", "Vary", "Last-Modified"])
        #expect(Self.sample.validators == Validators(etag: "\"v1\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT"))
    }

    @Test func write_CarriesMethodBodyAndContentType() {
        let write = Representation.write(.patch, body: [1, 2], contentType: "application/merge-patch+json")
        #expect(write.method == .patch)
        #expect(write.body == [1, 2])
        #expect(write.contentType == "application/merge-patch+json")
    }

    @Test(arguments: [
        sample, Representation(status: 204), Representation.write(.post, body: [0, 255], contentType: nil),
    ])
    func coding_RoundTrips(_ representation: Representation) throws {
        #expect(try Representation(decodingBytes: representation.encodedBytes()) == representation)
    }

    @Test func byteCount_GrowsWithBody() {
        let small = Representation(status: 200, body: [1])
        let large = Representation(status: 200, body: [UInt8](repeating: 1, count: 10_000))
        #expect(large.byteCount - small.byteCount == 9_999)
    }

    @Test func decoding_Throws_ForEveryTruncation() throws {
        let bytes = try Self.sample.encodedBytes()
        for length in 0..<bytes.count {
            #expect(throws: DatastoreError.self) { try Representation(decodingBytes: Array(bytes[..<length])) }
        }
    }

    @Test func decoding_Throws_ForGarbage() throws {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<500 {
            let garbage = (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            #expect(throws: DatastoreError.self) { try Representation(decodingBytes: garbage) }
        }
        let huge: [UInt8] = [0x52, 0x50, 0x52, 1, 0xC8, 0x01, 0x00] + [UInt8](repeating: 0xFF, count: 8) + [0x7F]
        #expect(throws: DatastoreError.self) { try Representation(decodingBytes: huge) }
        var badUTF8 = try Representation(status: 200, headers: ["ETag": "ab"]).encodedBytes()
        if let index = badUTF8.firstIndex(of: UInt8(ascii: "a")) { badUTF8[index] = 0xFF }
        #expect(throws: DatastoreError.self) { try Representation(decodingBytes: badUTF8) }
    }
}
