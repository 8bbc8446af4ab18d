extension HTTPHeaders {
    /// Whether the connection stays open after a message with these fields (RFC 9112 §9.3):
    /// `Connection: close` ends it; otherwise HTTP/1.1 persists and HTTP/1.0 only with `keep-alive`.
    public func connectionKeepsAlive(version: HTTPVersion) -> Bool {
        var keepAlive = false
        for field in fields where Self.equalsIgnoringCase(field.name, usually: "Connection") {
            // A lone option, the usual case, needs no split.
            if Self.equalsIgnoringCase(field.value, usually: "keep-alive") {
                keepAlive = true
                continue
            }
            if Self.equalsIgnoringCase(field.value, usually: "close") { return false }
            // Split over bytes (no grapheme breaking); the options are short, so `String` stays inline.
            for option in field.value.utf8.split(separator: UInt8(ascii: ",")) {
                let token = String(Substring(option).trimmingWhitespace())
                if Self.equalsIgnoringCase(token, "close") { return false }
                if Self.equalsIgnoringCase(token, "keep-alive") { keepAlive = true }
            }
        }
        return version.minor >= 1 || keepAlive
    }
}
