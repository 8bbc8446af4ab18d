import HTTP1
import RDS

/// Today's upstream request of a loop pass-through (``LoopPassThrough``) for a key without
/// forwarded fields, serialized once per upstream base around its two varying parts, the target
/// and the request id: each such request is then these bytes with those two written in, where
/// an `HTTPRequest` was built, given its id by the call observer and serialized field by field.
///
/// Made from the service's own request (``HTTPService/outgoing(_:credentials:)``, the observer's
/// ``UpstreamCallObserver/willSend(_:id:)`` and ``HTTP1/HTTPSerializer/request(_:host:port:)``)
/// with an empty target and a placeholder id, split where those two lie.
final class UpstreamRequestHead: Sendable {
    /// Whether the request asks to keep the connection.
    let keepsAlive: Bool
    /// The bytes before the target (the method and a space).
    private let start: [UInt8]
    /// The bytes from the target's end to the request id's value (all of the rest without an observer).
    private let middle: [UInt8]
    /// The bytes after the request id's value, when the observer writes one.
    private let end: [UInt8]?

    /// The request head of `service` for `base`; `nil` when the observer's request does not
    /// carry the placeholder id once (then every request is built as today's).
    init?(service: HTTPService, base: UpstreamBase) {
        let call = HTTPService.Call(
            method: .get, key: ResourceKey(repository: "", path: ""), base: base, extraHeaders: HTTPHeaders(),
            body: [], timeouts: service.timeouts)
        var request = service.outgoing(call, credentials: []).request
        request.target = ""
        if let observer = service.observer {
            observer.willSend(&request, id: Self.placeholder)
        }
        let bytes = HTTPSerializer.request(request, host: base.endpoint.host, port: base.endpoint.port)
        let method = Array(request.method.rawValue.utf8) + [UInt8(ascii: " ")]
        guard bytes.starts(with: method) else { return nil }
        let rest = bytes[method.count...]
        keepsAlive = request.headers.connectionKeepsAlive(version: .http1_1)
        start = method
        guard service.observer != nil else {
            (middle, end) = (Array(rest), nil)
            return
        }
        let marker = Array(Self.placeholder.value.utf8)
        let found = rest.indices.filter { rest[$0...].starts(with: marker) }
        guard found.count == 1, let at = found.first else { return nil }
        (middle, end) = (Array(rest[..<at]), Array(rest[(at + marker.count)...]))
    }

    /// The request for `target` carrying `id`, each piece copied once into memory sized for all
    /// (``ByteWriter``: appended to an array piece by piece, ~170 instructions more per request).
    func request(target: String, id: RequestID) -> [UInt8] {
        let tail = end.map { id.value.utf8.count + $0.count } ?? 0
        return ByteWriter.bytes(capacity: start.count + target.utf8.count + middle.count + tail) { writer in
            writer.writeRaw(start)
            writer.writeRaw(target)
            writer.writeRaw(middle)
            if let end {
                writer.writeRaw(id.value)
                writer.writeRaw(end)
            }
        }
    }

    /// The id the template is made with: long and odd enough to be found nowhere else in it.
    private static let placeholder = RequestID(validating: "rds-gateway-upstream-request-head-placeholder-0123456789")!
}
