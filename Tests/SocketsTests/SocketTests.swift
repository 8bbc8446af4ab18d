import Glibc
import Testing

@testable import Sockets

/// The socket layer alone: addresses, listening, non-blocking reads and writes, epoll readiness.
struct SocketTests {
    @Test(arguments: ["127.0.0.1", "::1", "localhost"])
    func listen_BindsKernelChosenPort_WhenPortIsZero(host: String) throws {
        let listener = try Socket.listen(on: SocketAddress(host: host, port: 0), backlog: 8)
        defer { listener.close() }
        let bound = try listener.localAddress()
        #expect(bound.port > 0)
        #expect(["127.0.0.1", "::1"].contains(bound.host))
    }

    @Test func socketAddress_FormatsIPv6InBrackets() throws {
        let address = try SocketAddress(host: "[::1]", port: 8080)
        #expect(address.family == AF_INET6)
        #expect(address.description == "[::1]:8080")
    }

    @Test func unixAddress_ConnectsToAListenerOnThatFile() throws {
        let path = "/tmp/rds-sockets-\(getpid()).sock"
        unlink(path)
        defer { unlink(path) }
        let address = try SocketAddress(unixPath: path)
        #expect(address.family == AF_UNIX)
        #expect(address.description == "unix:\(path)")
        let listener = try Socket.listen(on: address, backlog: 1)
        defer { listener.close() }
        let (client, _) = try Socket.connect(to: address)
        defer { client.close() }
        #expect(client.wait(for: Int16(POLLOUT), until: .now + .seconds(1)))
        #expect(client.pendingError() == 0)
        #expect(throws: SocketError.self) { try SocketAddress(unixPath: String(repeating: "x", count: 200)) }
    }

    @Test func socketAddress_RejectsPortOutOfRange() {
        #expect(throws: SocketError.self) { try SocketAddress(host: "127.0.0.1", port: 70_000) }
    }

    @Test func socketError_NamesCallReasonAndErrno() {
        let error = SocketError(operation: "bind(127.0.0.1:80)", code: EADDRINUSE)
        #expect(error.description == "bind(127.0.0.1:80) failed: Address already in use (errno \(EADDRINUSE))")
    }

    @Test func read_ReportsWouldBlockThenBytesThenClosed() throws {
        let (server, client) = try Socket.makePair()
        defer { server.close() }
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(buffer.withUnsafeMutableBytes { server.read(into: $0) } == .wouldBlock)
        #expect(Array("hello".utf8).withUnsafeBytes { client.send($0) } == .sent(5))
        #expect(buffer.withUnsafeMutableBytes { server.read(into: $0) } == .bytes(5))
        #expect(String(decoding: buffer.prefix(5), as: UTF8.self) == "hello")
        client.close()
        #expect(buffer.withUnsafeMutableBytes { server.read(into: $0) } == .closed)
    }

    @Test func send_ReportsWouldBlock_WhenPeerDoesNotRead_AndFailsWithoutSIGPIPEOnceClosed() throws {
        let (server, client) = try Socket.makePair()
        defer { server.close() }
        let block = [UInt8](repeating: 0x61, count: 64 * 1_024)
        var results: [Socket.SendResult] = []
        for _ in 0..<1_000 {
            let result = block.withUnsafeBytes { server.send($0) }
            results.append(result)
            if result == .wouldBlock { break }
        }
        #expect(results.last == .wouldBlock)
        // Shut down, then close: a child being spawned by a parallel test may hold a copy of the
        // descriptor for an instant, and a bare close would then leave the socket open.
        _ = shutdown(client.fd, Int32(SHUT_RDWR))
        client.close()
        #expect(block.withUnsafeBytes { server.send($0) } == .failed(EPIPE))
    }

    @Test func epoll_ReportsReadableAndWritable_AsWatched() throws {
        let (server, client) = try Socket.makePair()
        defer {
            server.close()
            client.close()
        }
        let epoll = try EPoll()
        try epoll.add(server.fd, interest: .readable, token: 42)
        var reported: [(UInt64, EPoll.Events)] = []
        epoll.wait(timeoutMilliseconds: 0) { reported.append(($0, $1)) }
        #expect(reported.isEmpty)
        _ = Array("x".utf8).withUnsafeBytes { client.send($0) }
        epoll.wait(timeoutMilliseconds: 1_000) { reported.append(($0, $1)) }
        #expect(reported.map(\.0) == [42])
        #expect(reported.first?.1.contains(.readable) == true)
        try epoll.modify(server.fd, interest: .writable, token: 7)
        reported = []
        epoll.wait(timeoutMilliseconds: 1_000) { reported.append(($0, $1)) }
        #expect(reported.map(\.0) == [7])
        #expect(reported.first?.1.contains(.writable) == true)
        epoll.remove(server.fd)
        reported = []
        epoll.wait(timeoutMilliseconds: 0) { reported.append(($0, $1)) }
        #expect(reported.isEmpty)
    }
}
