/// Turns the bytes of a Server-Sent Events stream (HTML's `text/event-stream`) into events, as
/// they arrive in pieces: `id:`, `event:` and `data:` fields (several `data:` lines joined with
/// `\n`), comments ignored, an event ended by a blank line. A line longer than ``maxLineBytes``
/// is dropped with its event.
struct ServerSentEventParser: Sendable {
    /// One event.
    struct Event: Sendable, Equatable {
        /// The `id:`, if the event had one.
        var id: String?
        /// The `event:` name, `message` by default.
        var name = "message"
        /// The `data:` lines joined with `\n`.
        var data = ""
    }

    /// The longest line kept, in bytes.
    static let maxLineBytes = 1 << 20

    /// The reconnection delay the stream last asked for (`retry:`), in milliseconds.
    private(set) var retry: Int?
    private var line: [UInt8] = []
    private var overlong = false
    private var current = Event()
    private var hasData = false

    /// Feeds `bytes` and returns the events they complete.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                if line.count < Self.maxLineBytes { line.append(byte) } else { overlong = true }
                continue
            }
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if let event = take(String(decoding: line, as: UTF8.self)) { events.append(event) }
            line.removeAll(keepingCapacity: true)
        }
        return events
    }

    private mutating func take(_ text: String) -> Event? {
        defer { overlong = false }
        guard !text.isEmpty else {
            defer { (current, hasData) = (Event(), false) }
            return hasData ? current : nil
        }
        guard !overlong, !text.hasPrefix(":") else { return nil }
        let colon = text.firstIndex(of: ":") ?? text.endIndex
        let field = text[..<colon]
        var value = colon < text.endIndex ? text[text.index(after: colon)...] : ""
        if value.hasPrefix(" ") { value = value.dropFirst() }
        switch field {
        case "id": current.id = String(value)
        case "retry": retry = Int(value) ?? retry
        case "event": current.name = String(value)
        case "data":
            current.data = hasData ? current.data + "\n" + value : String(value)
            hasData = true
        default: break
        }
        return nil
    }
}
