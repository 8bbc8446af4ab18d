import Foundation
import HTTP1

/// Small JSON answers of the gateway's own endpoints (health, admin).
enum JSONResponse {
    /// `object` as compact JSON with sorted keys, never cached.
    static func make(_ object: Any, status: Int = 200) -> HTTPResponse {
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return HTTPResponse(
            status: status, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            bytes: data.map(Array.init) ?? [])
    }
}
