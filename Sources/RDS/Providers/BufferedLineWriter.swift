import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Collects lines in memory and writes them to a file descriptor in few large `write(2)` calls:
/// when the buffer holds ``capacity`` bytes (by the thread whose line filled it), `delay` after
/// the first line that found it empty, and on ``flush()``, which a process calls before it exits.
///
/// Every write happens on one serial queue, so lines leave in the order they were appended; no
/// lock is held while writing. A thread that fills the buffer waits for it to be written (as a
/// direct `write(2)` to a slow reader would), which keeps the buffer within its bound. A line
/// the file refuses (e.g. `EPIPE` once its reader went away) is dropped and counted in
/// ``failedLines``.
public final class BufferedLineWriter: Sendable {
    /// Standard error, where ``JSONLinesLogger`` writes by default.
    public static let standardError = BufferedLineWriter(fileDescriptor: STDERR_FILENO)

    /// The bytes after which a line's writer writes the buffer at once.
    public let capacity: Int
    private let fileDescriptor: Int32
    private let delay: Duration
    private let buffer = Mutex<[UInt8]>([])
    private let writes = DispatchQueue(label: "rds.buffered-line-writer")
    private let failedLineCount = Atomic<Int>(0)

    /// Creates a writer; the caller keeps `fileDescriptor` open while the writer is used.
    /// - Parameters:
    ///   - fileDescriptor: Where the lines go.
    ///   - capacity: The bytes after which the buffer is written at once.
    ///   - delay: The longest a line waits in the buffer when nothing fills it.
    public init(fileDescriptor: Int32, capacity: Int = 64 * 1024, delay: Duration = .milliseconds(50)) {
        self.fileDescriptor = fileDescriptor
        self.capacity = capacity
        self.delay = delay
    }

    /// Lines dropped because the file refused them, since the writer was made.
    public var failedLines: Int { failedLineCount.load(ordering: .relaxed) }

    /// Appends `line` and a line break.
    public func append(line: some Collection<UInt8>) {
        let (wasEmpty, isFull) = buffer.withLock { bytes in
            let wasEmpty = bytes.isEmpty
            if wasEmpty { bytes.reserveCapacity(capacity + line.count + 1) }
            bytes.append(contentsOf: line)
            bytes.append(UInt8(ascii: "\n"))
            return (wasEmpty, bytes.count >= capacity)
        }
        if isFull {
            flush()
        } else if wasEmpty {
            writes.asyncAfter(deadline: .now() + .nanoseconds(Int(delay / .nanoseconds(1)))) { self.writeBuffer() }
        }
    }

    /// Writes every line appended so far and returns once they are written (or counted as failed).
    public func flush() {
        writes.sync { writeBuffer() }
    }

    /// Takes the buffer and writes it; runs on `writes` only.
    private func writeBuffer() {
        let bytes = buffer.withLock { bytes in
            defer { bytes = [] }
            return bytes
        }
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var written = 0
            while written < raw.count {
                let count = write(fileDescriptor, base + written, raw.count - written)
                if count > 0 {
                    written += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    let lost = raw[written...].reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
                    failedLineCount.add(lost, ordering: .relaxed)
                    return
                }
            }
        }
    }
}
