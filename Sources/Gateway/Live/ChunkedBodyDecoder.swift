import Foundation

/// Removes HTTP/1.1 chunked framing (RFC 9112 §7.1) from a body arriving in pieces; chunk
/// extensions and trailers are ignored.
struct ChunkedBodyDecoder: Sendable {
    private enum Phase {
        case size
        case data(remaining: Int)
        case dataEnd
        case done
    }

    private var phase = Phase.size
    private var sizeLine: [UInt8] = []

    /// `true` once the last chunk was read.
    var isDone: Bool {
        if case .done = phase { return true }
        return false
    }

    /// Feeds `bytes` and returns the body bytes they hold; `nil` when the framing is invalid.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [UInt8]? {
        var body: [UInt8] = []
        for byte in bytes {
            switch phase {
            case .size:
                guard byte == UInt8(ascii: "\n") else {
                    guard sizeLine.count < 64 else { return nil }
                    sizeLine.append(byte)
                    continue
                }
                let digits = String(decoding: sizeLine, as: UTF8.self)
                    .prefix { $0 != ";" && $0 != "\r" }.trimmingCharacters(in: .whitespaces)
                sizeLine.removeAll()
                guard let size = Int(digits, radix: 16), size >= 0 else { return nil }
                phase = size == 0 ? .done : .data(remaining: size)
            case .data(let remaining):
                body.append(byte)
                phase = remaining > 1 ? .data(remaining: remaining - 1) : .dataEnd
            case .dataEnd:
                if byte == UInt8(ascii: "\n") { phase = .size }
            case .done:
                return body
            }
        }
        return body
    }
}
