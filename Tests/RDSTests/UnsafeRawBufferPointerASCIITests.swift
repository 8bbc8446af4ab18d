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

    @Test func utf8String_TakesASCII_ValidatesTheRest_AndRefusesInvalidUTF8() {
        #expect(Array("W/\"abc\"".utf8).withUnsafeBytes { $0.utf8String } == "W/\"abc\"")
        #expect(Array("Zürich".utf8).withUnsafeBytes { $0.utf8String } == "Zürich")
        #expect([UInt8]([0x61, 0xC3]).withUnsafeBytes { $0.utf8String } == nil)
        #expect([UInt8]([0xFF, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68]).withUnsafeBytes { $0.utf8String } == nil)
    }
}
