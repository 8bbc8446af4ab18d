extension String {
    /// The index of the first `byte` in the string's UTF-8, searched in its own storage (the
    /// generic search over the view costs several times more); for ASCII bytes such as `?` only.
    public func firstIndex(ofASCII byte: UInt8) -> String.Index? {
        let utf8 = self.utf8
        if let offset = utf8.withContiguousStorageIfAvailable({ $0.firstIndex(of: byte) }) {
            return offset.map { utf8.index(utf8.startIndex, offsetBy: $0) }
        }
        return utf8.firstIndex(of: byte)
    }
}
