import HTTP1

/// Updating a stored response's header fields from a newer response (RFC 9111 §3.2), as a 304
/// to a revalidation asks (§4.3.4).
public enum StoredHeaders {
    /// Fields a newer response never replaces: the framing `Content-Length` (§3.2), lower-cased.
    public static let keptFromStored: [String] = ["content-length"]

    /// `stored` with every field of `newer` added, replacing the stored fields of the same name
    /// in place (all of a name's lines at the first one's position); fields new to the response
    /// are appended in `newer`'s order. Hop-by-hop fields are the caller's to drop beforehand.
    /// Names are compared without case, field by field over the fields in place (no field is
    /// copied but into the result), with no list made but the result (the lengths of the newer
    /// fields' names, and which are placed, live on the stack): a response has a few dozen fields
    /// at most, most pairs of names differ in length (told by comparing two integers), and this
    /// runs on every revalidation.
    public static func updated(_ stored: HTTPHeaders, with newer: HTTPHeaders) -> HTTPHeaders {
        var result: [HTTPField] = []
        result.reserveCapacity(stored.count + newer.count)
        stored.fields.withUnsafeBufferPointer { stored in
            newer.fields.withUnsafeBufferPointer { newer in
                // marks[i]: the length of newer[i]'s name (read once, not once per stored field),
                // and whether newer[i] is in the result already (a stored field of its name came first).
                withUnsafeTemporaryAllocation(of: (length: Int, placed: Bool).self, capacity: newer.count) { marks in
                    for index in newer.indices {
                        marks.initializeElement(at: index, to: (newer[index].name.utf8.count, false))
                    }
                    for field in stored.indices {
                        let name = stored[field].name
                        let length = name.utf8.count
                        var replaced = false
                        if !isKeptFromStored(name) {
                            for index in newer.indices
                            where marks[index].length == length && same(newer[index].name, name) {
                                replaced = true
                                if !marks[index].placed {
                                    marks[index].placed = true
                                    result.append(newer[index])
                                }
                            }
                        }
                        if !replaced { result.append(stored[field]) }
                    }
                    for index in newer.indices where !marks[index].placed && !isKeptFromStored(newer[index].name) {
                        result.append(newer[index])
                    }
                }
            }
        }
        return HTTPHeaders(result)
    }

    /// `true` for a field named in ``keptFromStored``.
    private static func isKeptFromStored(_ name: String) -> Bool {
        for kept in keptFromStored where same(name, kept) { return true }
        return false
    }

    private static func same(_ lhs: String, _ rhs: String) -> Bool { HTTPHeaders.equalsIgnoringCase(lhs, rhs) }
}
