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

    /// RFC 9110 §7.6.1: hop-by-hop fields go, end-to-end fields stay in order (`Set-Cookie` too,
    /// for answers not served from cache).
    @Test func init_KeepsEndToEndFields_InOrder() {
        let names = Self.sample.headers.fields.map(\.name)
        #expect(names == ["Content-Type", "ETag", "Set-Cookie", "Cache-Control", "Vary", "X-Other", "Last-Modified"])
        #expect(Self.sample.validators == Validators(etag: "\"v1\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT"))
    }

    /// Equality and hashing look at the parts, not at which shared box holds them.
    @Test func equality_ComparesStatusFieldsBodyAndMethod() {
        let fields: HTTPHeaders = ["Content-Type": "text/plain", "ETag": "\"1\""]
        let one = Representation(status: 200, headers: fields, body: [1])
        let same = Representation(status: 200, headers: ["content-type": "text/plain", "etag": "\"1\""], body: [1])
        #expect(one == same && one.hashValue == same.hashValue)
        #expect(Set([one, same, one.withWireForm()]).count == 1)
        #expect(one != Representation(status: 201, headers: fields, body: [1]))
        #expect(one != Representation(status: 200, headers: fields, body: [2]))
        #expect(one != Representation(status: 200, headers: ["Content-Type": "text/plain"], body: [1]))
        #expect(one != Representation(status: 200, headers: fields, body: [1], method: .put))
    }

    @Test func write_CarriesMethodBodyAndContentType() {
        let write = Representation.write(.patch, body: [1, 2], contentType: "application/merge-patch+json")
        #expect(write.method == .patch)
        #expect(write.body == [1, 2])
        #expect(write.contentType == "application/merge-patch+json")
    }

    /// RFC 9110 §7.6.1: a field named in `Connection` is hop-by-hop too.
    @Test func init_DropsFieldsNamedInConnection() {
        let representation = Representation(
            status: 200, headers: ["Connection": "X-Hop, close", "X-Hop": "1", "Keep-Alive": "5", "X-End": "2"])
        #expect(representation.headers.fields.map(\.name) == ["X-End"])
    }

    /// A lone `keep-alive` or `close` names no other field: every end-to-end field stays.
    @Test func init_KeepsEveryEndToEndField_BesideALoneConnectionOption() {
        let kept = Representation(
            status: 200, headers: ["Connection": "Keep-Alive", "Keep-Alive": "timeout=5", "X-End": "2"])
        #expect(kept.headers.fields.map(\.name) == ["X-End"])
        let named = Representation(
            status: 200, headers: ["Connection": "close", "connection": "X-Trace", "X-Trace": "1", "X-End": "2"])
        #expect(named.headers.fields.map(\.name) == ["X-End"])
    }

    @Test func coding_NeverStoresSetCookie() throws {
        let decoded = try Representation(decodingBytes: Self.sample.encodedBytes())
        #expect(decoded.headers["Set-Cookie"] == nil)
        #expect(decoded.headers["X-Other"] == "1")
    }

    /// Decoding takes the usual names (`Date`, `Content-Type`, ...) from a list rather than making
    /// them: every name still reads back spelled exactly as stored, usual, cased otherwise,
    /// or near one (equality compares names without case, so names are compared one by one).
    @Test func coding_KeepsEachNamesSpelling_UsualOrNot() throws {
        let fields = [
            HTTPField(name: "Date", value: "Sun, 06 Nov 1994 08:49:37 GMT"),
            HTTPField(name: "content-type", value: "a/b"), HTTPField(name: "ETAG", value: "\"1\""),
            HTTPField(name: "Dates", value: "1"), HTTPField(name: "Dat", value: "2"),
            HTTPField(name: "Cache-Control", value: "max-age=5"), HTTPField(name: "X-Ünïcode", value: "ü"),
        ]
        let decoded = try Representation(
            decodingBytes: Representation(status: 200, headers: HTTPHeaders(fields)).encodedBytes())
        #expect(decoded.headers.fields.map(\.name) == fields.map(\.name))
        #expect(decoded.headers.fields.map(\.value) == fields.map(\.value))
    }

    /// Entries written before every field was kept (format 1) read as a miss: decoding throws,
    /// and the file datastore then treats the file as unusable.
    @Test func decoding_Throws_ForFormatVersion1() throws {
        var old = try Representation(status: 200, headers: ["ETag": "ab"], body: [1]).encodedBytes()
        old[3] = 1
        #expect(throws: DatastoreError.self) { try Representation(decodingBytes: old) }
    }

    @Test(arguments: [
        Representation(
            status: 200, headers: HTTPHeaders(sample.headers.fields.filter { $0.name != "Set-Cookie" }),
            body: sample.body),
        Representation(status: 204), Representation.write(.post, body: [0, 255], contentType: nil),
    ])
    func coding_RoundTrips(_ representation: Representation) throws {
        #expect(try Representation(decodingBytes: representation.encodedBytes()) == representation)
    }

    @Test func decodingBytesIn_ReadsOnlyItsPartOfALargerBuffer_AndThrowsForATruncatedOne() throws {
        let encoded = try Self.sample.encodedBytes()
        let file: [UInt8] = [9, 9, 9] + encoded + [9, 9]
        let decoded = try file.withUnsafeBytes { raw in
            try Representation(decodingBytesIn: UnsafeRawBufferPointer(rebasing: raw[3..<(3 + encoded.count)]))
        }
        #expect(decoded == (try Representation(decodingBytes: encoded)))
        #expect(throws: DatastoreError.self) {
            try file.withUnsafeBytes { raw in
                try Representation(decodingBytesIn: UnsafeRawBufferPointer(rebasing: raw[3..<(2 + encoded.count)]))
            }
        }
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
        let huge: [UInt8] = [0x52, 0x50, 0x52, 2, 0xC8, 0x01, 0x00] + [UInt8](repeating: 0xFF, count: 8) + [0x7F]
        #expect(throws: DatastoreError.self) { try Representation(decodingBytes: huge) }
        var badUTF8 = try Representation(status: 200, headers: ["ETag": "ab"]).encodedBytes()
        if let index = badUTF8.firstIndex(of: UInt8(ascii: "a")) { badUTF8[index] = 0xFF }
        #expect(throws: DatastoreError.self) { try Representation(decodingBytes: badUTF8) }
    }
}
