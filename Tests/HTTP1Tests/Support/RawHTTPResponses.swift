import Foundation

/// Splits raw server output into responses, for assertions in end-to-end tests. Understands
/// exactly what the server writes: `Content-Length` or chunked bodies, `1xx` interim heads, and
/// bodiless answers to `HEAD` (pass `headRequests`).
struct RawHTTPResponses {
    /// One response as received.
    struct Response {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: String

        /// The first value of `name`, case-insensitive.
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// The complete final responses at the start of `bytes` (interim `1xx` heads are skipped).
    static func parse(_ bytes: [UInt8], headRequests: Bool = false) -> [Response] {
        var responses: [Response] = []
        var offset = 0
        while let (response, end) = next(in: bytes, from: offset, headRequest: headRequests) {
            if response.status >= 200 { responses.append(response) }
            offset = end
        }
        return responses
    }

    /// The complete final responses in `text`.
    static func parse(_ text: String, headRequests: Bool = false) -> [Response] {
        parse(Array(text.utf8), headRequests: headRequests)
    }

    /// How many complete final responses `bytes` holds.
    static func count(in bytes: [UInt8]) -> Int { parse(bytes).count }

    private static func next(in bytes: [UInt8], from start: Int, headRequest: Bool) -> (Response, Int)? {
        guard let headEnd = find([13, 10, 13, 10], in: bytes, from: start) else { return nil }
        let lines = String(decoding: bytes[start..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = Response(status: status, headers: headers, body: "")
        let bodyStart = headEnd + 4
        if status < 200 || headRequest { return (response, bodyStart) }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            var offset = bodyStart
            var body: [UInt8] = []
            while let lineEnd = find([13, 10], in: bytes, from: offset) {
                guard let size = Int(String(decoding: bytes[offset..<lineEnd], as: UTF8.self), radix: 16) else {
                    return nil
                }
                let dataEnd = lineEnd + 2 + size
                guard dataEnd + 2 <= bytes.count else { return nil }
                if size == 0 {
                    response.body = String(decoding: body, as: UTF8.self)
                    return (response, dataEnd + 2)
                }
                body.append(contentsOf: bytes[(lineEnd + 2)..<dataEnd])
                offset = dataEnd + 2
            }
            return nil
        }
        let length = Int(response.header("Content-Length") ?? "0") ?? 0
        guard bodyStart + length <= bytes.count else { return nil }
        response.body = String(decoding: bytes[bodyStart..<(bodyStart + length)], as: UTF8.self)
        return (response, bodyStart + length)
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        return (start...(bytes.count - pattern.count)).first { index in
            pattern.indices.allSatisfy { bytes[index + $0] == pattern[$0] }
        }
    }
}
