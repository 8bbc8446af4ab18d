import Testing

@testable import Gateway

struct ByteWriterTests {
    /// LEB128 integers, length-prefixed strings (a short one, held inline, and a long one) and
    /// byte runs, in order, whether the room given holds them all, none or only some: in one run,
    /// since they fit in the kilobyte written on the stack whatever room was asked for.
    @Test(arguments: [0, 5, 12, 400])
    func bytes_WritesEachPiece_InOrder_WhateverTheRoomGiven(capacity: Int) {
        let long = String(repeating: "abcdefgh", count: 20)
        var runs = 0
        let bytes = ByteWriter.bytes(capacity: capacity) { writer in
            runs += 1
            writer.writeRaw([0x52, 0x4B])
            writer.writeVarint(300)
            writer.writeString("Date")
            writer.writeString(long)
            writer.writeBytes([1, 2, 3])
            writer.writeBytes([])
        }
        let expected: [UInt8] =
            [0x52, 0x4B, 0xAC, 0x02, 4] + Array("Date".utf8) + [160, 1] + Array(long.utf8) + [3, 1, 2, 3, 0]
        #expect(bytes == expected)
        #expect(runs == 1)
    }

    /// Up to a kilobyte is written on the stack first: more than that, asked for or found
    /// needed, is written into an array of its own, whole.
    @Test(arguments: [0, 1_024, 1_025, 5_000])
    func bytes_WritesMoreThanAKilobyte_WhateverTheRoomGiven(capacity: Int) {
        let run = (0..<3_000).map { UInt8(truncatingIfNeeded: $0) }
        var runs = 0
        let bytes = ByteWriter.bytes(capacity: capacity) { writer in
            runs += 1
            writer.writeBytes(run)
        }
        #expect(bytes == [0xB8, 0x17] + run)
        #expect(runs == (capacity >= run.count + 2 ? 1 : 2))
    }

    @Test func bytes_IsEmpty_WhenNothingIsWritten() {
        #expect(ByteWriter.bytes(capacity: 0) { _ in }.isEmpty)
    }
}
