extension HTTPSerializer {
    // A head writes up to two lists of fields: a stored answer's (``HTTPResponse/storedHeaders``)
    // and the handler's own; each as the wire form of its leading fields, when it carries one
    // (not when a handler's own `Content-Length` is kept: the wire form drops it), then the fields
    // after those, read where they lie (iterating them would copy each field, retaining its strings).

    /// The most bytes ``writeDate(of:keepingLength:to:)`` and ``writeFields(of:keepingLength:to:)``
    /// write for `headers`.
    static func bound(of headers: HTTPHeaders, keepingLength: Bool) -> Int {
        let wireForm = keepingLength ? nil : headers.serialized
        let wireBound = wireForm.map { $0.bytes.count + ($0.dateLine?.count ?? 0) } ?? 0
        return wireBound + withFields(of: headers, after: wireForm, fieldBounds)
    }

    /// Writes the first `Date` of `headers` as the head's `Date` line; `false` when they have none.
    static func writeDate(of headers: HTTPHeaders, keepingLength: Bool, to head: inout HTTPHeadBuffer) -> Bool {
        let wireForm = keepingLength ? nil : headers.serialized
        if let line = wireForm?.dateLine {
            head.write(line)
            return true
        }
        return withFields(of: headers, after: wireForm) { fields in
            for index in fields.indices where isDate(fields[index].name) {
                head.writeField("Date", fields[index].value)
                return true
            }
            return false
        }
    }

    /// Writes the fields of `headers` but those the head writes itself.
    static func writeFields(of headers: HTTPHeaders, keepingLength: Bool, to head: inout HTTPHeadBuffer) {
        let wireForm = keepingLength ? nil : headers.serialized
        if let wireForm { head.write(wireForm.bytes) }
        withFields(of: headers, after: wireForm) { writeFieldLines($0, keepingLength: keepingLength, to: &head) }
    }

    /// `body` of the fields of `headers` after those `wireForm` stands for.
    private static func withFields<Result>(
        of headers: HTTPHeaders, after wireForm: HTTPSerializedFields?, _ body: (UnsafeBufferPointer<HTTPField>) -> Result
    ) -> Result {
        headers.fields.withUnsafeBufferPointer { fields in
            body(UnsafeBufferPointer(rebasing: fields[(wireForm?.count ?? 0)...]))
        }
    }
}
