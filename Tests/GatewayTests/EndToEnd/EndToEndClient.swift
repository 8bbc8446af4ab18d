import Foundation
import Glibc
import HTTP1

/// A blocking HTTP/1.1 test client over a plain socket, one thread per call (test code only), so
/// hundreds of truly concurrent clients need no shared pool. Parses answers with HTTP1's parser.
enum EndToEndClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends one request on a new connection and returns the whole answer.
    static func send(
        _ method: HTTPMethod, _ target: String, port: Int, headers: HTTPHeaders = [:], body: String = ""
    ) async throws -> HTTPResponse {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result { try sendBlocking(method, target, port: port, headers: headers, body: body) })
            }
        }
    }

    /// Opens a connection, sends the request, and returns the socket for the caller to read.
    static func connect(_ method: HTTPMethod, _ target: String, port: Int, headers: HTTPHeaders, body: String) throws
        -> Int32
    {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket failed") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(descriptor)
            throw Failure(description: "connect to \(port) failed")
        }
        var head = "\(method.rawValue) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        if !body.isEmpty || method == .put || method == .post || method == .patch {
            head += "Content-Length: \(body.utf8.count)\r\n"
        }
        let bytes = Array((head + "\r\n" + body).utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else {
            close(descriptor)
            throw Failure(description: "send failed")
        }
        return descriptor
    }

    private static func sendBlocking(
        _ method: HTTPMethod, _ target: String, port: Int, headers: HTTPHeaders, body: String
    ) throws -> HTTPResponse {
        let descriptor = try connect(method, target, port: port, headers: headers, body: body)
        defer { close(descriptor) }
        var parser = HTTPResponseParser(requestMethod: method)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { received += buffer[..<count] }
            switch parser.parse(received, endOfStream: count <= 0) {
            case .complete(let response, _): return response
            case .invalid(let error): throw Failure(description: "invalid response: \(error)")
            case .incomplete:
                guard count > 0 else { throw Failure(description: "connection closed after \(received.count) bytes") }
            }
        }
    }
}

extension EndToEndClient {
    /// Closes a connection opened with ``connect(_:_:port:headers:body:)`` without reading the answer.
    static func disconnect(_ descriptor: Int32) {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}
