import HTTP1

/// A read loop over cut bytes (append, parse, drop consumed), checking `consumed` on the way.
enum FuzzFeed {
    /// Messages in order, then the error code or the bytes left over.
    struct Outcome: Equatable, CustomStringConvertible {
        var messages: [FuzzMessage] = []
        var error: HTTPParseError?
        var leftover = 0

        var description: String {
            "\(messages) error: \(error.map(String.init(describing:)) ?? "none") left: \(leftover)"
        }
    }

    static func feed<Message>(
        _ bytes: [UInt8], cuts: [Int], summary: (Message) -> FuzzMessage,
        parse: (UnsafeRawBufferPointer, _ endOfStream: Bool) -> HTTPParseResult<Message>
    ) -> Outcome {
        var buffer: [UInt8] = []
        var outcome = Outcome()
        var start = 0
        let ends = cuts + [bytes.count]
        for (index, end) in ends.enumerated() {
            buffer.append(contentsOf: bytes[start..<end])
            start = end
            let endOfStream = index == ends.count - 1
            while true {
                let result = buffer.withUnsafeBytes { parse($0, endOfStream) }
                guard case .complete(let message, let consumed) = result else {
                    if case .invalid(let error) = result {
                        precondition(
                            [400, 413, 414, 431, 501, 505].contains(error.status), "unexpected status \(error)")
                        outcome.error = error
                        return outcome
                    }
                    break
                }
                precondition(consumed > 0 && consumed <= buffer.count, "consumed \(consumed) of \(buffer.count)")
                outcome.messages.append(summary(message))
                buffer.removeFirst(consumed)
            }
        }
        outcome.leftover = buffer.count
        return outcome
    }
}
