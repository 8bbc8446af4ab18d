import RDS
import Testing

struct DatastoreCodableTests {
    @Test func string_RoundTripsThroughUTF8_AndCountsUTF8Bytes() throws {
        let text = "Zürich ☀️ \u{0}/.."
        let bytes = text.encodedBytes()
        #expect(bytes == Array(text.utf8))
        #expect(text.byteCount == bytes.count)
        #expect(try String(decodingBytes: bytes) == text)
    }

    @Test func string_ThrowsCodingFailed_WhenBytesAreNotUTF8() {
        let error = #expect(throws: DatastoreError.self) { try String(decodingBytes: [0x66, 0xFF, 0xFE]) }
        #expect(error?.kind == .codingFailed)
    }

    @Test func bytes_RoundTripUnchanged_AndCountTheirLength() {
        let bytes: [UInt8] = [0, 1, 0xFF, 0x80]
        #expect(bytes.encodedBytes() == bytes)
        #expect(bytes.byteCount == 4)
        #expect([UInt8](decodingBytes: bytes) == bytes)
    }
}
