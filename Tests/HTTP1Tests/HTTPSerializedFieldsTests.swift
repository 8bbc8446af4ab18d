@testable import HTTP1
import Testing

/// Headers carrying their wire form (``HTTPHeaders/withSerializedFields()``) must serialize to the
/// very bytes the same headers do without it, whatever is appended, replaced or removed later.
struct HTTPSerializedFieldsTests {
    static let date = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)

    /// Stored fields as an upstream might send them: a `Date`, framing and `Server` to drop,
    /// a bad name, control bytes, a repeated name.
    static let stored: HTTPHeaders = HTTPHeaders([
        (name: "Content-Type", value: "application/json"), (name: "Date", value: "Mon, 07 Nov 1994 08:49:37 GMT"),
        (name: "ETag", value: "\"v1\""), (name: "Server", value: "origin"), (name: "Content-Length", value: "2"),
        (name: "Bad Name", value: "x"), (name: "X-A", value: "a\r\nInjected: 1"), (name: "Vary", value: "Accept"),
        (name: "vary", value: "Accept-Language"), (name: "Cache-Control", value: "max-age=60"),
    ])

    /// What a cache does to stored fields before answering.
    static let edits: [(String, @Sendable (inout HTTPHeaders) -> Void)] = [
        ("nothing", { _ in }),
        ("appends the cache's fields", { $0["Age"] = "3"; $0["X-Cache"] = "HIT"; $0["Cache-Status"] = "c; hit" }),
        ("removes an absent field", { $0.remove("Set-Cookie"); $0["Age"] = "0" }),
        ("replaces a stored field", { $0["Cache-Control"] = "no-cache" }),
        ("removes a stored field", { $0.remove("Content-Type") }),
        ("removes the stored Date", { $0.remove("date") }),
        ("appends a Date", { $0.add(name: "Date", value: "Tue, 08 Nov 1994 08:49:37 GMT") }),
        ("appends a bad field", { $0.add(name: "X-B", value: "b\u{0}c"); $0.add(name: "", value: "x") }),
    ]

    static func head(_ headers: HTTPHeaders, status: Int, method: HTTPMethod, body: [UInt8]) -> String {
        let response = HTTPResponse(status: status, headers: headers, bytes: body)
        return String(
            decoding: HTTPSerializer.head(response, requestMethod: method, keepAlive: true, date: date),
            as: UTF8.self)
    }

    @Test(arguments: 0..<edits.count, [HTTPMethod.get, .head])
    func head_IsTheSame_WithAndWithoutWireForm(edit: Int, method: HTTPMethod) {
        for (status, body) in [(200, Array("{}".utf8)), (200, []), (304, []), (404, Array("no".utf8))] {
            var plain = Self.stored
            var serialized = Self.stored.withSerializedFields()
            Self.edits[edit].1(&plain)
            Self.edits[edit].1(&serialized)
            #expect(
                Self.head(serialized, status: status, method: method, body: body)
                    == Self.head(plain, status: status, method: method, body: body),
                "\(Self.edits[edit].0), \(method.rawValue) \(status), \(body.count) bytes")
            #expect(serialized == plain)
        }
    }

    /// A response carrying the stored fields as ``HTTPResponse/storedHeaders`` and the added ones
    /// in `headers` is written as one holding them all in `headers`, stored ones first; the
    /// stored fields' wire form stays with them in ``HTTPResponse/allHeaders`` (a 206's fields).
    @Test(arguments: [HTTPMethod.get, .head])
    func head_IsTheSame_WithTheStoredFieldsApart(method: HTTPMethod) {
        let added: HTTPHeaders = ["Age": "3", "X-Cache": "HIT", "Date": "Tue, 08 Nov 1994 08:49:37 GMT"]
        for stored in [Self.stored, Self.stored.withSerializedFields(), ["ETag": "\"v1\""]] {
            for (status, body) in [(200, Array("{}".utf8)), (200, []), (304, [])] {
                var apart = HTTPResponse(status: status, headers: added, bytes: body)
                apart.storedHeaders = stored
                #expect(apart.allHeaders == HTTPHeaders(stored.fields + added.fields))
                #expect((apart.allHeaders.serialized != nil) == (stored.serialized != nil))
                let together = HTTPResponse(status: status, headers: apart.allHeaders, bytes: body)
                #expect(
                    HTTPSerializer.head(apart, requestMethod: method, keepAlive: true, date: Self.date)
                        == HTTPSerializer.head(together, requestMethod: method, keepAlive: true, date: Self.date))
            }
        }
    }

    @Test func head_ReplaysStoredDate_AndDropsServerFramingAndBadNames() {
        let text = Self.head(Self.stored.withSerializedFields(), status: 200, method: .get, body: Array("{}".utf8))
        #expect(text.components(separatedBy: "Date: ").count == 2)
        #expect(text.contains("Date: Mon, 07 Nov 1994 08:49:37 GMT\r\n"))
        #expect(text.contains("X-A: a  Injected: 1\r\n"))
        #expect(!text.contains("origin") && !text.contains("Bad Name"))
        #expect(text.hasSuffix("Content-Length: 2\r\nConnection: keep-alive\r\n\r\n"))
    }

    /// How a 304 may change the stored fields (see ``HTTPHeaders/sharingSerializedFields(of:)``),
    /// and whether their wire form still holds.
    static let renewals: [(String, Bool, @Sendable (inout [HTTPField]) -> Void)] = [
        ("nothing", true, { _ in }),
        ("a new Date", true, { $0[1] = HTTPField(name: "Date", value: "Tue, 08 Nov 1994 08:49:37 GMT") }),
        (
            "a new Server and Content-Length", true,
            {
                $0[3] = HTTPField(name: "Server", value: "other")
                $0[4] = HTTPField(name: "Content-Length", value: "3")
            }
        ),
        ("a new ETag", false, { $0[2] = HTTPField(name: "ETag", value: "\"v2\"") }),
        ("a name in another case", false, { $0[2] = HTTPField(name: "etag", value: "\"v1\"") }),
        ("a field added", false, { $0.append(HTTPField(name: "X-New", value: "1")) }),
        ("a field removed", false, { $0.removeLast() }),
    ]

    @Test(arguments: 0..<renewals.count)
    func sharedWireForm_OnlyWhenItsBytesHold_AndThenWritesTheNewFields(renewal: Int) {
        let (change, shares, edit) = Self.renewals[renewal]
        var fields = Self.stored.fields
        edit(&fields)
        let renewed = HTTPHeaders(fields)
        let shared = renewed.sharingSerializedFields(of: Self.stored.withSerializedFields())
        #expect((shared != nil) == shares, "\(change)")
        guard let shared else { return }
        #expect(shared == renewed)
        #expect(
            Self.head(shared, status: 200, method: .get, body: [])
                == Self.head(renewed, status: 200, method: .get, body: []), "\(change)")
    }

    @Test func sharedWireForm_NeedsOneStandingForEveryPreviousField() {
        #expect(Self.stored.sharingSerializedFields(of: Self.stored) == nil)
        var appended = Self.stored.withSerializedFields()
        appended.add(name: "Age", value: "1")
        #expect(HTTPHeaders(appended.fields).sharingSerializedFields(of: appended) == nil)
    }

    @Test func lookups_AndHashing_IgnoreTheWireForm() {
        let serialized = Self.stored.withSerializedFields()
        #expect(serialized == Self.stored)
        #expect(serialized.hashValue == Self.stored.hashValue)
        #expect(serialized["etag"] == "\"v1\"")
        #expect(serialized.values(for: "Vary") == ["Accept", "Accept-Language"])
    }
}
