import Foundation
import RDS
import RDSTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The log buffer on real pipes and files: lines leave in order on ``BufferedLineWriter/flush()``,
/// by themselves after the delay and when the buffer fills, and refused lines are counted.
@Suite(.timeLimit(.minutes(1)))
struct BufferedLineWriterTests {
    /// A pipe whose ends are closed when the test ends.
    private final class Pipe {
        let read: Int32
        let write: Int32

        init() throws {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            (read, write) = (ends[0], ends[1])
        }

        deinit {
            close(read)
            close(write)
        }

        /// `true` when bytes wait to be read, after up to `milliseconds` (a guard against a hang).
        func isReadable(within milliseconds: Int32) -> Bool {
            var entry = pollfd(fd: read, events: Int16(POLLIN), revents: 0)
            return poll(&entry, 1, milliseconds) == 1
        }

        /// What can be read now, once `isReadable` said so.
        func readAvailable() -> String {
            var bytes = [UInt8](repeating: 0, count: 1 << 20)
            let count = bytes.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
            return String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
        }
    }

    @Test func flush_WritesEveryLine_InOrder_EachEndedByALineBreak() throws {
        let pipe = try Pipe()
        let writer = BufferedLineWriter(fileDescriptor: pipe.write, delay: .seconds(3600))
        writer.append(line: Array(#"{"n":1}"#.utf8))
        writer.append(line: Array(#"{"n":2}"#.utf8))
        let before = pipe.isReadable(within: 0)
        writer.flush()
        #expect(!before)
        #expect(pipe.readAvailable() == "{\"n\":1}\n{\"n\":2}\n")
        #expect(writer.failedLines == 0)
    }

    @Test func lines_AreWrittenWithoutFlush_AfterTheDelay() throws {
        let pipe = try Pipe()
        let writer = BufferedLineWriter(fileDescriptor: pipe.write, delay: .milliseconds(1))
        writer.append(line: Array("first".utf8))
        #expect(pipe.isReadable(within: 30_000))
        let first = pipe.readAvailable()
        writer.append(line: Array("second".utf8))
        #expect(pipe.isReadable(within: 30_000))
        #expect(first == "first\n")
        #expect(pipe.readAvailable() == "second\n")
    }

    @Test func aLineFillingTheBuffer_WritesItBeforeAppendReturns() throws {
        let pipe = try Pipe()
        let writer = BufferedLineWriter(fileDescriptor: pipe.write, capacity: 64, delay: .seconds(3600))
        writer.append(line: Array(repeating: UInt8(ascii: "a"), count: 40))
        let beforeFull = pipe.isReadable(within: 0)
        writer.append(line: Array(repeating: UInt8(ascii: "b"), count: 40))
        #expect(!beforeFull)
        #expect(pipe.isReadable(within: 0))
        #expect(pipe.readAvailable() == String(repeating: "a", count: 40) + "\n" + String(repeating: "b", count: 40) + "\n")
    }

    @Test func linesTheFileRefuses_AreCounted() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rds-log-\(UUID().uuidString)").path
        try #require(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let readOnly = open(path, O_RDONLY)
        try #require(readOnly >= 0)
        defer { close(readOnly) }
        let writer = BufferedLineWriter(fileDescriptor: readOnly, delay: .seconds(3600))
        for line in ["one", "two", "three"] { writer.append(line: Array(line.utf8)) }
        writer.flush()
        #expect(writer.failedLines == 3)
    }

    @Test func jsonLinesLogger_WritesTheSameLine_ThroughTheWriter() throws {
        let pipe = try Pipe()
        let writer = BufferedLineWriter(fileDescriptor: pipe.write, delay: .seconds(3600))
        let time = Date(timeIntervalSince1970: 1_767_225_600.25)
        let logger = JSONLinesLogger(minimumLevel: .info, clock: ManualClock(start: time), writer: writer)
        logger.log(.info, "request", orderedFields: [("method", "GET"), ("status", 200)])
        logger.flush()
        #expect(
            pipe.readAvailable()
                == #"{"time":"2026-01-01T00:00:00.250Z","level":"info","event":"request","method":"GET","status":200}"#
                + "\n")
    }
}
