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
        dateLine = fields.first { HTTPHeaders.equalsIgnoringCase($0.name, "date") }.map { HTTPSerializer.dateLine($0.value) }
    }
}
