import HTTP1
import HTTPCaching
import Testing

/// RFC 9111 §3.2 / §4.3.4: a 304's fields update the stored response's.
struct StoredHeadersTests {
    @Test func updated_ReplacesInPlace_AppendsNew_KeepsContentLength() {
        let stored: HTTPHeaders = [
            "Content-Type": "application/json", "Cache-Control": "max-age=10", "Link": "<a>", "link": "<b>",
            "ETag": "\"v1\"", "Content-Length": "2",
        ]
        let newer: HTTPHeaders = [
            "cache-control": "max-age=60", "Link": "<c>", "X-New": "1", "Content-Length": "0", "Date": "d",
        ]
        let updated = StoredHeaders.updated(stored, with: newer)
        #expect(updated.fields.map(\.name) == [
            "Content-Type", "cache-control", "Link", "ETag", "Content-Length", "X-New", "Date",
        ])
        #expect(updated.values(for: "Link") == ["<c>"])
        #expect(updated["Cache-Control"] == "max-age=60")
        #expect(updated["Content-Length"] == "2")
    }

    @Test func updated_KeepsTheNewerOrder_ForRepeatedAndNewNames() {
        let stored = HTTPHeaders([(name: "Vary", value: "x"), (name: "ETag", value: "\"v1\"")])
        let newer = HTTPHeaders([
            (name: "X-A", value: "1"), (name: "vary", value: "a"), (name: "X-B", value: "2"), (name: "x-a", value: "3"),
            (name: "Vary", value: "b"),
        ])
        let updated = StoredHeaders.updated(stored, with: newer)
        #expect(updated.fields.map { "\($0.name)=\($0.value)" } == [
            "vary=a", "Vary=b", "ETag=\"v1\"", "X-A=1", "X-B=2", "x-a=3",
        ])
    }

    @Test func updated_WithNothingNew_IsTheStoredFields() {
        let stored: HTTPHeaders = ["ETag": "\"v1\"", "X-A": "1"]
        #expect(StoredHeaders.updated(stored, with: [:]) == stored)
    }
}
