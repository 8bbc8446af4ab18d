import HTTP1

/// Updating a stored response's header fields from a newer response (RFC 9111 §3.2), as a 304
/// to a revalidation asks (§4.3.4).
public enum StoredHeaders {
    /// Fields a newer response never replaces: the framing `Content-Length` (§3.2).
    public static let keptFromStored: Set<String> = ["content-length"]

    /// `stored` with every field of `newer` added, replacing the stored fields of the same name
    /// in place (all of a name's lines at the first one's position); fields new to the response
    /// are appended in `newer`'s order. Hop-by-hop fields are the caller's to drop beforehand.
    /// Names are compared without case, field by field: a response has a few dozen fields at
    /// most, and this runs on every revalidation (hashing lower-cased names cost far more).
    public static func updated(_ stored: HTTPHeaders, with newer: HTTPHeaders) -> HTTPHeaders {
        let replacing = newer.fields.filter { field in !keptFromStored.contains { same(field.name, $0) } }
        // The names alone, searched many times (cheaper than the name-value pairs).
        let names = replacing.map(\.name)
        var placed: [String] = []
        var result: [HTTPField] = []
        result.reserveCapacity(stored.count + replacing.count)
        for field in stored.fields {
            guard names.contains(where: { same($0, field.name) }) else {
                result.append(field)
                continue
            }
            if !placed.contains(where: { same($0, field.name) }) {
                placed.append(field.name)
                for index in names.indices where same(names[index], field.name) { result.append(replacing[index]) }
            }
        }
        for index in names.indices where !placed.contains(where: { same($0, names[index]) }) {
            result.append(replacing[index])
        }
        return HTTPHeaders(result)
    }

    private static func same(_ lhs: String, _ rhs: String) -> Bool { HTTPHeaders.equalsIgnoringCase(lhs, rhs) }
}
