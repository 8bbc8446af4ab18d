extension Substring {
    /// The substring without leading and trailing spaces and tabs: HTTP's optional whitespace
    /// (`OWS`, RFC 9110 §5.6.3) around a field value or a list element.
    public func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[start...end]
    }
}
