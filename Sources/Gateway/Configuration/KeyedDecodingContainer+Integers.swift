extension KeyedDecodingContainer {
    /// Decodes an integer, if present, naming the key path when the value is a fraction or
    /// out of range.
    ///
    /// `JSONDecoder` reports `8080.5` for an `Int` as "not valid JSON" with no key path; this
    /// decodes the number first and then checks it is whole.
    func decodeIntegerIfPresent(forKey key: Key) throws -> Int? {
        let decoded: Double?
        do {
            decoded = try decodeIfPresent(Double.self, forKey: key)
        } catch DecodingError.typeMismatch(_, let context) {
            throw DecodingError.typeMismatch(Int.self, context)
        }
        guard let number = decoded else { return nil }
        guard number.isFinite, number.rounded() == number, abs(number) < 9.0e15 else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "expected an integer, found \(number)")
        }
        return Int(number)
    }
}
