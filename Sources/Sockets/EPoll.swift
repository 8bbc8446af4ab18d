import Glibc

/// A Linux epoll instance (epoll(7)), level-triggered.
///
/// Swift's Glibc module does not export `<sys/epoll.h>`, so the three calls are looked up once
/// in the C library with `dlsym` and called through C function pointers; `epoll_event` is laid
/// out by hand (packed, 12 bytes, on x86-64; 16 bytes elsewhere).
public final class EPoll {
    /// Readiness flags (`EPOLLIN` …), as in `<sys/epoll.h>`.
    public struct Events: OptionSet, Sendable {
        /// The `<sys/epoll.h>` bits.
        public let rawValue: UInt32
        /// Flags from their `<sys/epoll.h>` bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Readable (or end of stream).
        public static let readable = Events(rawValue: 0x001)
        /// Writable.
        public static let writable = Events(rawValue: 0x004)
        /// An error is pending (always reported).
        public static let error = Events(rawValue: 0x008)
        /// Hung up (always reported).
        public static let hangUp = Events(rawValue: 0x010)
    }

    private typealias Create = @convention(c) (Int32) -> Int32
    private typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    private struct Functions: @unchecked Sendable {
        let create: Create
        let control: Control
        let wait: Wait
    }

    private static let functions: Functions? = {
        let library = dlopen(nil, RTLD_NOW)
        guard let create = dlsym(library, "epoll_create1"), let control = dlsym(library, "epoll_ctl"),
            let wait = dlsym(library, "epoll_wait")
        else { return nil }
        return Functions(
            create: unsafeBitCast(create, to: Create.self), control: unsafeBitCast(control, to: Control.self),
            wait: unsafeBitCast(wait, to: Wait.self))
    }()

    #if arch(x86_64)
        private static let eventStride = 12
        private static let dataOffset = 4
    #else
        private static let eventStride = 16
        private static let dataOffset = 8
    #endif

    private let functions: Functions
    private let fd: Int32
    private let events: UnsafeMutableRawBufferPointer
    private let capacity: Int

    /// A new epoll instance reporting at most `capacity` events per `wait`.
    /// - Throws: `SocketError` when the C library has no epoll or the kernel refuses.
    public init(capacity: Int = 256) throws {
        guard let functions = Self.functions else {
            throw SocketError(operation: "epoll_create1", code: ENOSYS, message: "epoll is not available")
        }
        let fd = functions.create(O_CLOEXEC)
        guard fd >= 0 else { throw SocketError.current("epoll_create1") }
        self.functions = functions
        self.fd = fd
        self.capacity = capacity
        self.events = .allocate(byteCount: capacity * Self.eventStride, alignment: 8)
    }

    deinit {
        Glibc.close(fd)
        events.deallocate()
    }

    /// Watches `descriptor` for `interest`; `wait` reports it with `token`.
    /// - Throws: `SocketError` from `epoll_ctl`.
    public func add(_ descriptor: Int32, interest: Events, token: UInt64) throws {
        try control(1, descriptor, interest, token)
    }

    /// Changes what `descriptor` is watched for.
    /// - Throws: `SocketError` from `epoll_ctl`.
    public func modify(_ descriptor: Int32, interest: Events, token: UInt64) throws {
        try control(3, descriptor, interest, token)
    }

    /// Stops watching `descriptor` (before closing it).
    public func remove(_ descriptor: Int32) {
        try? control(2, descriptor, [], 0)
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever) and calls `body` with each ready token and its events.
    public func wait(timeoutMilliseconds: Int32, _ body: (UInt64, Events) -> Void) {
        let count = functions.wait(fd, events.baseAddress, Int32(capacity), timeoutMilliseconds)
        guard count > 0 else { return }
        for index in 0..<Int(count) {
            let offset = index * Self.eventStride
            let flags = events.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            let token = events.loadUnaligned(fromByteOffset: offset + Self.dataOffset, as: UInt64.self)
            body(token, Events(rawValue: flags))
        }
    }

    private func control(_ operation: Int32, _ descriptor: Int32, _ interest: Events, _ token: UInt64) throws {
        var event = (UInt64(0), UInt64(0))
        let status = withUnsafeMutableBytes(of: &event) { raw in
            raw.storeBytes(of: interest.rawValue, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: token, toByteOffset: Self.dataOffset, as: UInt64.self)
            return functions.control(fd, operation, descriptor, raw.baseAddress)
        }
        guard status == 0 else { throw SocketError.current("epoll_ctl(\(operation), \(descriptor))") }
    }
}
