import Foundation
import HTTP1

extension HTTPResponse {
    /// The body as text.
    var text: String {
        guard case .bytes(let bytes) = body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The body as a JSON object.
    var json: [String: Any] {
        guard case .bytes(let bytes) = body else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }
}
