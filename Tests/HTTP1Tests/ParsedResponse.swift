import HTTP1

/// A response reduced to comparable values.
struct ParsedResponse: Equatable, Sendable, CustomStringConvertible {
    var status: Int
    var headers: [String]
    var body: [UInt8]

    init(_ response: HTTPResponse) {
        status = response.status
        headers = response.headers.map { "\($0.name): \($0.value)" }
        body = if case .bytes(let bytes) = response.body { bytes } else { [] }
    }

    init(_ status: Int, _ headers: [String], _ body: String = "") {
        self.status = status
        self.headers = headers
        self.body = Array(body.utf8)
    }

    var description: String { "\(status) \(headers) \(String(decoding: body, as: UTF8.self))" }
}
