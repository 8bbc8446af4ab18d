import HTTP1

/// What replaying a representation's fields needs to know of them, found in one pass when the
/// representation is made (see ``Representation/replayFacts``): its validators, and whether it
/// holds a field a cached answer replaces or drops (`Age`, `X-Cache`, `Cache-Status`,
/// `Set-Cookie`, `X-Request-ID`). Without one, a hit appends its own fields without searching the stored ones;
/// a field it hides (the repository's tag field) is searched for only when ``mayHold(_:)``.
struct ReplayFacts: Sendable {
    /// The first `ETag` value.
    let etag: String?
    /// The first `Last-Modified` value.
    let lastModified: String?
    /// `true` when a field is named `Age`, `X-Cache`, `Cache-Status`, `Set-Cookie` or `X-Request-ID`.
    let holdsServedFields: Bool
    /// Bit ``signature(_:)`` set for each field's name.
    private let signatures: UInt64

    /// `false` when no field is named `name` (without case); `true` when one may be.
    func mayHold(_ name: String) -> Bool { signatures & Self.signature(name) != 0 }

    /// One of 64 bits, from a name's length and first letter (without case).
    private static func signature(_ name: String) -> UInt64 {
        let first = Int(name.utf8.first ?? 0) | 0x20
        // A masking shift: the smart `<<` with an `Int` amount costs more than this whole test.
        return 1 &<< UInt64((name.utf8.count &* 31 &+ first) & 63)
    }

    /// Reads `fields` once, in place (iterating the array would copy each field, retaining and
    /// releasing its two strings), telling names apart by length before comparing them.
    init(_ fields: [HTTPField]) {
        var etag: String?
        var lastModified: String?
        var holdsServedFields = false
        var signatures: UInt64 = 0
        fields.withUnsafeBufferPointer { fields in
            for index in fields.indices {
                let name = fields[index].name
                signatures |= Self.signature(name)
                switch name.utf8.count {
                case 3: holdsServedFields = holdsServedFields || HTTPHeaders.equalsIgnoringCase(name, "age")
                case 4: if etag == nil, HTTPHeaders.equalsIgnoringCase(name, "etag") { etag = fields[index].value }
                case 7: holdsServedFields = holdsServedFields || HTTPHeaders.equalsIgnoringCase(name, "x-cache")
                case 10: holdsServedFields = holdsServedFields || HTTPHeaders.equalsIgnoringCase(name, "set-cookie")
                case 12:
                    holdsServedFields =
                        holdsServedFields || HTTPHeaders.equalsIgnoringCase(name, "cache-status")
                        || HTTPHeaders.equalsIgnoringCase(name, RequestID.headerName)
                case 13:
                    if lastModified == nil, HTTPHeaders.equalsIgnoringCase(name, "last-modified") {
                        lastModified = fields[index].value
                    }
                default: break
                }
            }
        }
        self.etag = etag
        self.lastModified = lastModified
        self.holdsServedFields = holdsServedFields
        self.signatures = signatures
    }
}
