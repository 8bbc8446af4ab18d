import HTTP1

/// A parsed message reduced to comparable values.
struct FuzzMessage: Equatable, CustomStringConvertible {
    enum Kind {
        case request(HTTPRequest)
        case response(status: Int)
    }

    var kind: Kind
    var summary: String
    var body: [UInt8]

    init(_ request: HTTPRequest) {
        kind = .request(request)
        summary =
            "\(request.method) \(request.target) \(request.version) \(request.headers.map { "\($0.name): \($0.value)" })"
        body = request.body
    }

    init(_ response: HTTPResponse) {
        kind = .response(status: response.status)
        summary = "\(response.status) \(response.headers.map { "\($0.name): \($0.value)" })"
        body = if case .bytes(let bytes) = response.body { bytes } else { [] }
    }

    static func == (lhs: FuzzMessage, rhs: FuzzMessage) -> Bool { lhs.summary == rhs.summary && lhs.body == rhs.body }

    var description: String { "\(summary) body: \(body.count) bytes" }
}
