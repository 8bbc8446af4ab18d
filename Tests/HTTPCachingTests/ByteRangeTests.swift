import HTTP1
import HTTPCaching
import Testing

/// RFC 9110 §14: a single byte range on a stored 200 of 10 bytes.
struct ByteRangeTests {
    static let etag = "\"v1\""
    static let modified = "Sun, 06 Nov 1994 08:49:37 GMT"

    @Test(arguments: [
        ("bytes=0-3", ByteRange.partial(lower: 0, upper: 3)), ("bytes=5-", .partial(lower: 5, upper: 9)),
        ("bytes=-4", .partial(lower: 6, upper: 9)), ("bytes=8-100", .partial(lower: 8, upper: 9)),
        ("bytes=-100", .partial(lower: 0, upper: 9)), ("bytes=10-", .unsatisfiable), ("bytes=20-30", .unsatisfiable),
        ("bytes=0-1, 4-5", .full), ("items=0-3", .full), ("bytes=abc", .full), ("bytes=5-2", .full),
        ("bytes=-", .full), ("bytes=-0", .unsatisfiable),
    ])
    func evaluate_ReadsOneByteRange_RFC9110_14_1_2(_ field: String, _ expected: ByteRange) {
        #expect(ByteRange.evaluate(["Range": field], length: 10, etag: Self.etag, lastModified: Self.modified) == expected)
    }

    /// RFC 9110 §13.1.5: If-Range with a strong match gives the range, anything else the whole.
    @Test(arguments: [
        (etag, ByteRange.partial(lower: 0, upper: 3)), ("\"v2\"", .full), ("W/\"v1\"", .full),
        (modified, .partial(lower: 0, upper: 3)), ("Mon, 07 Nov 1994 08:49:37 GMT", .full),
    ])
    func evaluate_HonoursIfRange(_ condition: String, _ expected: ByteRange) {
        let headers: HTTPHeaders = ["Range": "bytes=0-3", "If-Range": condition]
        #expect(ByteRange.evaluate(headers, length: 10, etag: Self.etag, lastModified: Self.modified) == expected)
    }

    @Test func evaluate_IsFull_WithoutRange() {
        #expect(ByteRange.evaluate([:], length: 10, etag: nil, lastModified: nil) == .full)
    }
}
