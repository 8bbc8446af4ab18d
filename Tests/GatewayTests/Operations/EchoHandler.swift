import Gateway
import HTTP1
import Synchronization

/// Answers every request with `status` and `X-Cache: MISS`, recording the request id it saw;
/// answers at once with `X-Cache: <immediateCacheHeader>` when that is set.
final class EchoHandler: HTTPHandler {
    struct Seen: Sendable {
        var current: String?
        var header: String?
    }

    private let status: Int
    private let immediateCacheHeader: String?
    private let storage = Mutex<[Seen]>([])

    init(status: Int = 200, immediateCacheHeader: String? = nil) {
        self.status = status
        self.immediateCacheHeader = immediateCacheHeader
    }

    var seen: [Seen] { storage.withLock { $0 } }

    func respondImmediately(to request: inout HTTPRequest) -> HTTPResponse? {
        immediateCacheHeader.map { HTTPResponse(status: 200, headers: ["X-Cache": $0]) }
    }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let current = await Task { RequestID.current?.value }.value
        storage.withLock { $0.append(Seen(current: current, header: request.headers["X-Request-ID"])) }
        return HTTPResponse(status: status, headers: ["X-Cache": "MISS"])
    }
}
