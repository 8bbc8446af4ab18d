import Foundation

/// What `GET /health` answered: the status code and the body, and whether it is the gateway's own
/// (its JSON body names `rds-gateway` as its `service`), not any server answering 200.
public struct HealthCheckAnswer: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// The body (as far as it was read).
    public var body: [UInt8]

    /// Creates an answer.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }

    /// `true` when the body is the gateway's `/health` JSON: `"status":"ok"` and
    /// `"service":"rds-gateway"`.
    public var isGateway: Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return false }
        return object["service"] as? String == GatewayVersion.name && object["status"] as? String == "ok"
    }

    /// Reads `HTTP/1.x NNN …`, the header block and the body; a `Content-Length` cuts the body.
    /// - Throws: ``HealthCheckError/malformedResponse`` when the bytes do not start with a status line.
    init(parsing bytes: [UInt8]) throws(HealthCheckError) {
        let line = String(
            decoding: bytes.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]) else {
            throw .malformedResponse
        }
        guard let (head, bodyStart) = Self.head(of: bytes) else {
            self.init(status: code, body: [])
            return
        }
        let body = Array(bytes[bodyStart...])
        self.init(status: code, body: Self.contentLength(in: head).map { Array(body.prefix($0)) } ?? body)
    }

    /// `true` once `bytes` hold the whole head and, when it has a `Content-Length`, that many body bytes.
    static func isComplete(_ bytes: [UInt8]) -> Bool {
        guard let (head, bodyStart) = head(of: bytes), let length = contentLength(in: head) else { return false }
        return bytes.count - bodyStart >= length
    }

    /// The head's text and where the body starts, once `\r\n\r\n` has arrived.
    private static func head(of bytes: [UInt8]) -> (String, Int)? {
        let end = Array("\r\n\r\n".utf8)
        guard bytes.count >= end.count,
            let start = (0...(bytes.count - end.count)).first(where: { bytes[$0..<$0 + end.count].elementsEqual(end) })
        else { return nil }
        return (String(decoding: bytes[..<start], as: UTF8.self), start + end.count)
    }

    private static func contentLength(in head: String) -> Int? {
        for line in head.split(separator: "\r\n").dropFirst() {
            let field = line.split(separator: ":", maxSplits: 1)
            if field.count == 2, field[0].lowercased() == "content-length" {
                return Int(field[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }
}
