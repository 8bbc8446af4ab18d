import RDS
import Testing

struct UnsafeRawBufferPointerASCIITests {
    @Test(arguments: [0, 1, 7, 8, 9, 16, 23])
    func isASCII_FindsANonASCIIByteAtEveryPosition(length: Int) {
        let ascii = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(ascii.withUnsafeBytes { $0.isASCII })
        for position in 0..<length {
            var bytes = ascii
            bytes[position] = 0x80
            #expect(!bytes.withUnsafeBytes { $0.isASCII }, "byte \(position) of \(length)")
        }
    }
}
