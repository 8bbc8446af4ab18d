import Foundation

extension UnsafeBufferPointer<UInt8> {
    /// `true` when these bytes begin with the UTF-8 bytes of `text`, compared with `memcmp`: the
    /// generic `elementsEqual` and `starts(with:)` over the views cost ~150–300 instructions a
    /// call, more than a route match's other work (request paths and route literals are compared
    /// this way on every request).
    func starts(withBytesOf text: String) -> Bool {
        let length = text.utf8.count
        guard count >= length else { return false }
        return text.utf8.withContiguousStorageIfAvailable { textBytes in
            // A missing address is an empty buffer: only an empty text gets here with one.
            guard let lhs = baseAddress, let rhs = textBytes.baseAddress else { return true }
            return memcmp(lhs, rhs, length) == 0
        } ?? prefix(length).elementsEqual(text.utf8)
    }
}
