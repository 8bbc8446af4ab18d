import HTTP1

/// Updating a stored response's header fields from a newer response (RFC 9111 §3.2), as a 304
/// to a revalidation asks (§4.3.4).
public enum StoredHeaders {
    /// Fields a newer response never replaces: the framing `Content-Length` (§3.2).
    public static let keptFromStored: Set<String> = ["content-length"]

    /// `stored` with every field of `newer` added, replacing the stored fields of the same name
    /// in place (all of a name's lines at the first one's position); fields new to the response
    /// are appended in `newer`'s order. Hop-by-hop fields are the caller's to drop beforehand.
    public static func updated(_ stored: HTTPHeaders, with newer: HTTPHeaders) -> HTTPHeaders {
        // Every name lowered once (this runs on every revalidation).
        let replacing = newer.fields.map { (field: $0, name: $0.name.lowercased()) }
            .filter { !keptFromStored.contains($0.name) }
        let byName = Dictionary(grouping: replacing, by: \.name)
        var placed: Set<String> = []
        var result: [(name: String, value: String)] = []
        for field in stored.fields {
            let name = field.name.lowercased()
            guard let replacements = byName[name] else {
                result.append(field)
                continue
            }
            if placed.insert(name).inserted {
                result += replacements.map(\.field)
            }
        }
        result += replacing.filter { !placed.contains($0.name) }.map(\.field)
        return HTTPHeaders(result)
    }
}
