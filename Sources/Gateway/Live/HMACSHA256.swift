import RDS

/// HMAC-SHA256 (RFC 2104) over RDS's own ``SHA256``, and a comparison whose time does not depend
/// on where two codes differ.
enum HMACSHA256 {
    private static let blockSize = 64

    /// The 32-byte authentication code of `message` under `key`.
    static func code(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > blockSize ? SHA256.digest(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        let inner = SHA256.digest(block.map { $0 ^ 0x36 } + message)
        return SHA256.digest(block.map { $0 ^ 0x5c } + inner)
    }

    /// `code` as lower-case hexadecimal.
    static func hex(_ code: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: code.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] }, as: UTF8.self)
    }

    /// `true` when `lhs` and `rhs` are equal, comparing every byte whatever the first difference.
    static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        var difference = UInt8(lhs.count == rhs.count ? 0 : 1)
        for index in 0..<max(lhs.count, rhs.count) {
            difference |= (index < lhs.count ? lhs[index] : 0) ^ (index < rhs.count ? rhs[index] : 0)
        }
        return difference == 0
    }
}
