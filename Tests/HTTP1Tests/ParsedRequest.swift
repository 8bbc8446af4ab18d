import HTTP1

/// A request reduced to comparable values.
struct ParsedRequest: Equatable, Sendable, CustomStringConvertible {
    var method: String
    var target: String
    var version: HTTPVersion
    var headers: [String]
    var body: [UInt8]

    init(_ request: HTTPRequest) {
        method = request.method.rawValue
        target = request.target
        version = request.version
        headers = request.headers.map { "\($0.name): \($0.value)" }
        body = request.body
    }

    init(_ method: String, _ target: String, _ headers: [String], _ body: String = "", version: HTTPVersion = .http1_1)
    {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = Array(body.utf8)
    }

    var description: String { "\(method) \(target) \(version) \(headers) \(String(decoding: body, as: UTF8.self))" }
}
