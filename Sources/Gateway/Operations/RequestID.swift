/// The id that ties one request's log line, response and upstream calls together.
///
/// A client's `X-Request-ID` is kept when it is 1–128 characters of `[A-Za-z0-9._-]`; anything
/// else (too long, spaces, quotes, control characters that could forge log lines) is replaced by a
/// generated id of 32 lowercase hex digits.
public struct RequestID: Sendable, Hashable, CustomStringConvertible {
    /// The header that carries the id in both directions and upstream.
    public static let headerName = "X-Request-ID"
    /// The longest id accepted from a client.
    public static let maximumLength = 128

    /// The id text.
    public let value: String

    /// The id text.
    public var description: String { value }

    /// Keeps `candidate` when it is a valid id, or returns `nil`.
    public init?(validating candidate: some StringProtocol) {
        let utf8 = candidate.utf8
        guard (1...Self.maximumLength).contains(utf8.count), utf8.allSatisfy(Self.isAllowed) else { return nil }
        value = String(candidate)
    }

    /// The client's id when valid, else a new one.
    public init(header: String?) {
        self = header.flatMap { RequestID(validating: $0) } ?? RequestID.generate()
    }

    /// A new random id: 128 bits as 32 lowercase hex digits.
    public static func generate() -> RequestID {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return RequestID(unchecked: hex(high) + hex(low))
    }

    private init(unchecked value: String) {
        self.value = value
    }

    private static func hex(_ number: UInt64) -> String {
        let digits = String(number, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
