import Glibc

/// An IPv4 or IPv6 socket address (`sockaddr_in` / `sockaddr_in6` in a `sockaddr_storage`).
public struct SocketAddress: Sendable, CustomStringConvertible {
    private var storage: sockaddr_storage
    /// The length of the address within `storage`.
    private(set) var length: socklen_t

    /// Wraps an address filled in by the kernel (`accept`, `getsockname`).
    public init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
        unixPath = nil
    }

    /// Resolves `host` (an IPv4 or IPv6 literal, optionally in brackets, or a name such as
    /// `localhost`) and `port` to the first matching address.
    /// - Throws: `SocketError` when the host does not resolve or the port is out of range.
    public init(host: String, port: Int) throws {
        guard (0...65535).contains(port) else {
            throw SocketError(operation: "resolve(\(host):\(port))", code: EINVAL, message: "port out of range")
        }
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, String(port), &hints, &result)
        guard status == 0, let first = result, let address = first.pointee.ai_addr else {
            let message = status == 0 ? "no address" : String(cString: gai_strerror(status))
            throw SocketError(operation: "resolve(\(host))", code: EINVAL, message: message)
        }
        defer { freeaddrinfo(result) }
        var storage = sockaddr_storage()
        let length = first.pointee.ai_addrlen
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(length)))
        }
        self.init(storage: storage, length: length)
    }

    /// A Unix-domain socket address for the file at `path`.
    /// - Throws: `SocketError` (`ENAMETOOLONG`) when the path does not fit in `sun_path`.
    public init(unixPath path: String) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw SocketError(operation: "unix(\(path))", code: ENAMETOOLONG, message: "path too long or empty")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            withUnsafeBytes(of: address) { target.copyMemory(from: $0) }
        }
        let length = MemoryLayout<sa_family_t>.size + bytes.count + 1
        self.init(storage: storage, length: socklen_t(length))
        unixPath = path
    }

    /// The file of a Unix-domain address made by ``init(unixPath:)``.
    public private(set) var unixPath: String?

    /// `AF_INET`, `AF_INET6` or `AF_UNIX`.
    public var family: Int32 { Int32(storage.ss_family) }

    /// The port in host byte order.
    public var port: Int {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET: Int(UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port))
            case AF_INET6: Int(UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port))
            default: 0
            }
        }
    }

    /// The numeric host, e.g. `127.0.0.1` or `::1`; empty for other families (e.g. `AF_UNIX`).
    public var host: String {
        switch family {
        case AF_INET:
            var address = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) }.sin_addr
            return Self.numericHost(family: AF_INET, address: &address)
        case AF_INET6:
            var address = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) }.sin6_addr
            return Self.numericHost(family: AF_INET6, address: &address)
        default:
            return ""
        }
    }

    private static func numericHost<Address>(family: Int32, address: inout Address) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let converted = withUnsafeBytes(of: &address) { raw in
            inet_ntop(family, raw.baseAddress, &text, socklen_t(text.count)) != nil
        }
        guard converted else { return "" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `host:port`, with IPv6 hosts in brackets.
    public var description: String {
        if let unixPath { return "unix:\(unixPath)" }
        return family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    public func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
