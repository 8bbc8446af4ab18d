import Glibc

/// The process's open-files limit (`RLIMIT_NOFILE`): every client connection holds one
/// descriptor, so the default connection limit is derived from it.
public struct OpenFileLimit: Sendable, Equatable {
    /// The soft limit: what `accept` and `open` are held to.
    public var soft: Int
    /// The hard limit: as far as an unprivileged process may raise the soft one.
    public var hard: Int

    /// Creates a limit pair.
    public init(soft: Int, hard: Int) {
        self.soft = soft
        self.hard = hard
    }

    /// The limit now.
    public static var current: OpenFileLimit {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            return OpenFileLimit(soft: 1_024, hard: 1_024)
        }
        return OpenFileLimit(soft: Self.clamped(limit.rlim_cur), hard: Self.clamped(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one (done once at start-up).
    /// - Returns: The limit before and after.
    @discardableResult
    public static func raiseToHard() -> (before: OpenFileLimit, after: OpenFileLimit) {
        let before = current
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return (before, current)
    }

    /// Descriptors kept back from client connections for everything else: files of the disk
    /// cache, upstream connections, the reserve for health checks.
    public var margin: Int { Swift.max(256, soft / 8) }

    /// The default connection limit for this soft limit: what is left after the margin, at least
    /// 64, at most 262,144 (an idle connection costs about 1 KB).
    public var connectionBudget: Int { Swift.min(262_144, Swift.max(64, soft - margin)) }

    /// `value` as an `Int`; unlimited (`RLIM_INFINITY`, all ones) and huge values as `Int32.max`.
    private static func clamped(_ value: rlim_t) -> Int {
        value > rlim_t(Int32.max) ? Int(Int32.max) : Int(value)
    }
}
