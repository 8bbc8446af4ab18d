/// The wire form of the leading fields of an ``HTTPHeaders``, made once for headers written many
/// times (a cached answer's stored fields, replayed on every hit): exactly what ``HTTPSerializer``
/// writes for those fields, so a response head copies these bytes instead of checking and copying
/// field by field. See ``HTTPHeaders/withSerializedFields()``.
public final class HTTPSerializedFields: Sendable {
    /// How many leading fields the bytes stand for.
    let count: Int
    /// Those fields as the serializer writes them between `Date` and the framing fields: without
    /// `Server`, `Date`, `Content-Length`, `Transfer-Encoding` and `Connection`.
    let bytes: [UInt8]
    /// The line of the first `Date` among them (the serializer writes it in its own place).
    let dateLine: [UInt8]?

    init(_ fields: [HTTPField]) {
        count = fields.count
        bytes = HTTPSerializer.fieldLines(fields[...], keepingLength: false)
        dateLine = Self.dateLine(of: fields)
    }

    /// The wire form of `fields` sharing the bytes of `previous`, the wire form of all of
    /// `previousFields`, when those bytes are `fields`' too: the same names in the same order
    /// and the same values but for fields the bytes leave out (`Date`, `Server`: a stored answer
    /// renewed by a 304 usually differs in its `Date` alone). Only the `Date` line is made anew.
    /// `nil` when the bytes would differ.
    init?(sharing previous: HTTPSerializedFields, of previousFields: [HTTPField], for fields: [HTTPField]) {
        guard previous.count == previousFields.count, fields.count == previousFields.count else { return nil }
        // Compared in place (iterating the arrays would copy each field).
        let differ = fields.withUnsafeBufferPointer { new in
            previousFields.withUnsafeBufferPointer { old in
                for index in new.indices {
                    guard new[index].name == old[index].name else { return true }
                    if new[index].value != old[index].value,
                        !HTTPSerializer.isWrittenByHead(new[index].name, keepingLength: false)
                    {
                        return true
                    }
                }
                return false
            }
        }
        guard !differ else { return nil }
        count = previous.count
        bytes = previous.bytes
        dateLine = Self.dateLine(of: fields)
    }

    /// The line of the first `Date` in `fields`, looked for where the fields lie (a predicate
    /// over the array copied each field, retaining and releasing its two strings).
    private static func dateLine(of fields: [HTTPField]) -> [UInt8]? {
        fields.withUnsafeBufferPointer { fields in
            for index in fields.indices where HTTPHeaders.equalsIgnoringCase(fields[index].name, "date") {
                return HTTPSerializer.dateLine(fields[index].value)
            }
            return nil
        }
    }
}
