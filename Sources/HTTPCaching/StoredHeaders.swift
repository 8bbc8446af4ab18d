import HTTP1

/// Updating a stored response's header fields from a newer response (RFC 9111 §3.2), as a 304
/// to a revalidation asks (§4.3.4).
public enum StoredHeaders {
    /// Fields a newer response never replaces: the framing `Content-Length` (§3.2), lower-cased.
    public static let keptFromStored: [String] = ["content-length"]

    /// `stored` with every field of `newer` added, replacing the stored fields of the same name
    /// in place (all of a name's lines at the first one's position); fields new to the response
    /// are appended in `newer`'s order. Hop-by-hop fields are the caller's to drop beforehand.
    /// Names are compared without case, field by field over the fields in place, with no list
    /// made but the result (the marks of the newer fields placed live on the stack): a response
    /// has a few dozen fields at most, most pairs of names differ in length (told without a
    /// call), and this runs on every revalidation.
    public static func updated(_ stored: HTTPHeaders, with newer: HTTPHeaders) -> HTTPHeaders {
        var result: [HTTPField] = []
        result.reserveCapacity(stored.count + newer.count)
        newer.fields.withUnsafeBufferPointer { newer in
            // placed[i]: newer[i] is in the result already (a stored field of its name came first).
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: newer.count) { placed in
                placed.initialize(repeating: false)
                for field in stored.fields {
                    guard !isKeptFromStored(field.name) else {
                        result.append(field)
                        continue
                    }
                    var replaced = false
                    for index in newer.indices where same(newer[index].name, field.name) {
                        replaced = true
                        if !placed[index] {
                            placed[index] = true
                            result.append(newer[index])
                        }
                    }
                    if !replaced { result.append(field) }
                }
                for index in newer.indices where !placed[index] && !isKeptFromStored(newer[index].name) {
                    result.append(newer[index])
                }
            }
        }
        return HTTPHeaders(result)
    }

    private static func isKeptFromStored(_ name: String) -> Bool { keptFromStored.contains { same(name, $0) } }

    private static func same(_ lhs: String, _ rhs: String) -> Bool { HTTPHeaders.equalsIgnoringCase(lhs, rhs) }
}
