/// The server's own error answers: a JSON body `{"error":{"code":…,"message":…}}` for requests
/// it rejects before any handler sees them (limits, malformed input, timeouts).
enum HTTPErrorResponse {
    /// The response for a parse error: its status, code and message.
    static func make(for error: HTTPParseError) -> HTTPResponse {
        make(status: error.status, code: error.code.rawValue, message: error.message)
    }

    /// The response for a status the server raises itself (408 when a request head is too slow).
    static func make(status: Int) -> HTTPResponse {
        switch status {
        case 408: make(status: 408, code: "request_timeout", message: "The request head did not arrive in time.")
        case 503: make(status: 503, code: "server_full", message: "Every connection slot is in use; try again.")
        default: make(status: status, code: "http_\(status)", message: "The request could not be served.")
        }
    }

    /// A JSON error response.
    static func make(status: Int, code: String, message: String) -> HTTPResponse {
        let body = #"{"error":{"code":"# + jsonString(code) + #","message":"# + jsonString(message) + "}}"
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], bytes: Array(body.utf8))
    }

    /// `text` as a JSON string literal, quotes included.
    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
