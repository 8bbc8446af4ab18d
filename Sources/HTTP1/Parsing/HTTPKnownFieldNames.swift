#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The field names most messages carry, spelled as most peers send them: a parsed name with
/// exactly these bytes is given the literal's string instead of a new one (decoding and checking a
/// name's bytes into a string costs more than these comparisons; an upstream answer carries about
/// ten names). Any other spelling, another case included, is decoded as received.
public enum HTTPKnownFieldNames {
    /// The known name `bytes` spell, else `nil`. Compared by length first, then with the names
    /// of that length, the most frequent first. (A plain `switch`: a table of names costs its
    /// lazy initialisation checks and reference counting on every lookup, as much as decoding.)
    public static func name(_ bytes: UnsafeRawBufferPointer) -> String? {
        func spells(_ name: StaticString) -> Bool { memcmp(bytes.baseAddress!, name.utf8Start, bytes.count) == 0 }
        switch bytes.count {
        case 3: return spells("Age") ? "Age" : nil
        case 4:
            if spells("Host") { return "Host" }
            if spells("Date") { return "Date" }
            if spells("ETag") { return "ETag" }
            if spells("Etag") { return "Etag" }
            if spells("Vary") { return "Vary" }
            return spells("Link") ? "Link" : nil
        case 5: return spells("Range") ? "Range" : nil
        case 6:
            if spells("Server") { return "Server" }
            if spells("Accept") { return "Accept" }
            if spells("Pragma") { return "Pragma" }
            return spells("Cookie") ? "Cookie" : nil
        case 7: return spells("Expires") ? "Expires" : nil
        case 8:
            if spells("Location") { return "Location" }
            return spells("If-Match") ? "If-Match" : nil
        case 10:
            if spells("Connection") { return "Connection" }
            if spells("User-Agent") { return "User-Agent" }
            if spells("Set-Cookie") { return "Set-Cookie" }
            return spells("Keep-Alive") ? "Keep-Alive" : nil
        case 12:
            if spells("Content-Type") { return "Content-Type" }
            return spells("X-Request-ID") ? "X-Request-ID" : nil
        case 13:
            if spells("Cache-Control") { return "Cache-Control" }
            if spells("Last-Modified") { return "Last-Modified" }
            if spells("Accept-Ranges") { return "Accept-Ranges" }
            if spells("If-None-Match") { return "If-None-Match" }
            if spells("Content-Range") { return "Content-Range" }
            return spells("Authorization") ? "Authorization" : nil
        case 14: return spells("Content-Length") ? "Content-Length" : nil
        case 15:
            if spells("Accept-Encoding") { return "Accept-Encoding" }
            return spells("Accept-Language") ? "Accept-Language" : nil
        case 16:
            if spells("Content-Encoding") { return "Content-Encoding" }
            return spells("Content-Location") ? "Content-Location" : nil
        case 17:
            if spells("Transfer-Encoding") { return "Transfer-Encoding" }
            return spells("If-Modified-Since") ? "If-Modified-Since" : nil
        case 25: return spells("Strict-Transport-Security") ? "Strict-Transport-Security" : nil
        case 27: return spells("Access-Control-Allow-Origin") ? "Access-Control-Allow-Origin" : nil
        default: return nil
        }
    }
}
