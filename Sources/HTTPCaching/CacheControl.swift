import HTTP1

/// The parsed `Cache-Control` fields of a message (RFC 9111 §5.2).
///
/// Parsing never fails: names are case-insensitive, arguments may be tokens or quoted strings
/// (with `\` escapes and commas inside), every field line of a message counts, and anything that
/// is not a directive is skipped up to the next comma. When a directive repeats with the same
/// argument it counts once; a delta-seconds directive repeated with *different* arguments
/// (`max-age=60, max-age=5`) reads as `0`, the response stale (RFC 9111 §4.2.1 allows either the
/// first occurrence or stale; a shared cache takes the conservative one).
public struct CacheControl: Sendable, Hashable {
    /// The largest delta-seconds value kept; larger ones are read as this (RFC 9111 §1.2.2).
    public static let maximumDeltaSeconds = 2_147_483_648

    /// The directives in the order they came.
    public let directives: [CacheDirective]

    /// Parses every `Cache-Control` field of `headers`.
    public init(headers: HTTPHeaders) { self.init(headers: headers, field: "Cache-Control") }

    /// Parses every field of `headers` named `name` (`Cache-Control`, or a targeted field of RFC
    /// 9213), each value over its own bytes, without a list of the values.
    public init(headers: HTTPHeaders, field name: String) {
        var parser = CacheControlParser()
        headers.forEachValue(for: name) { value in
            var value = value
            value.withUTF8 { parser.parse($0) }
        }
        self.init(directives: parser.directives)
    }

    /// Parses field values (one per field line).
    public init(fieldValues: [String]) {
        var parser = CacheControlParser()
        // Each value scanned over its own bytes (no copy).
        for var value in fieldValues { value.withUTF8 { parser.parse($0) } }
        self.init(directives: parser.directives)
    }

    /// Parses one field value.
    public init(_ fieldValue: String) { self.init(fieldValues: [fieldValue]) }

    /// The text last read by ``recent(_:)`` on each thread, and its directives.
    private static let recentlyRead = ThreadMemo<String, CacheControl>()

    /// ``init(_:)`` for the lone `Cache-Control` line of an answer: a service's answers mostly
    /// carry the same value, so the last value read on this thread and its directives are kept,
    /// and the same text again is compared, not parsed (its directives' names not compared with
    /// each known one).
    static func recent(_ fieldValue: String) -> CacheControl {
        recentlyRead.value(for: fieldValue) { text in
            var parser = CacheControlParser()
            var value = text
            value.withUTF8 { parser.parse($0) }
            return CacheControl(directives: parser.directives)
        }
    }

    /// Reads the directives a cache asks about in one pass (asking each by name would scan them all
    /// ten times for every answer); only a delta-seconds directive present is looked up again, for
    /// its repetitions.
    init(directives: [CacheDirective]) {
        self.directives = directives
        var (noStore, noCache, isPrivate, isPublic, mustRevalidate, proxyRevalidate) =
            (false, false, false, false, false, false)
        var (hasMaxAge, hasSharedMaxAge, hasStaleWhileRevalidate, hasStaleIfError) = (false, false, false, false)
        for directive in directives {
            switch directive.name {
            case "no-store": noStore = true
            case "max-age": hasMaxAge = true
            case "s-maxage": hasSharedMaxAge = true
            case "no-cache": noCache = true
            case "private": isPrivate = true
            case "public": isPublic = true
            case "must-revalidate": mustRevalidate = true
            case "proxy-revalidate": proxyRevalidate = true
            case "stale-while-revalidate": hasStaleWhileRevalidate = true
            case "stale-if-error": hasStaleIfError = true
            default: break
            }
        }
        (self.noStore, self.noCache, self.isPrivate, self.isPublic) = (noStore, noCache, isPrivate, isPublic)
        (self.mustRevalidate, self.proxyRevalidate) = (mustRevalidate, proxyRevalidate)
        maxAge = hasMaxAge ? Self.deltaSeconds("max-age", in: directives) : nil
        sharedMaxAge = hasSharedMaxAge ? Self.deltaSeconds("s-maxage", in: directives) : nil
        staleWhileRevalidate = hasStaleWhileRevalidate ? Self.deltaSeconds("stale-while-revalidate", in: directives) : nil
        staleIfError = hasStaleIfError ? Self.deltaSeconds("stale-if-error", in: directives) : nil
    }

    /// `true` when a directive named `name` (any case) is present.
    public func contains(_ name: String) -> Bool {
        directives.contains { Self.isNamed($0, name) }
    }

    /// The argument of the first directive named `name`, or `nil` when absent or argument-less.
    public func value(of name: String) -> String? {
        directives.first { Self.isNamed($0, name) }?.value
    }

    /// The first `name` directive's argument as delta-seconds (RFC 9111 §1.2.2); `nil` when absent.
    ///
    /// An argument that is missing or not a non-negative integer, or a repetition with another
    /// argument, reads as `0`, the conservative
    /// choice for a shared cache (the response counts as stale); huge values read as
    /// ``maximumDeltaSeconds``.
    public func deltaSeconds(_ name: String) -> Int? { Self.deltaSeconds(name.lowercased(), in: directives) }

    /// ``deltaSeconds(_:)`` of `directives` for a lower-cased `name` (directive names are lower-cased),
    /// in one pass, no list of the occurrences made.
    private static func deltaSeconds(_ name: String, in directives: [CacheDirective]) -> Int? {
        var first: CacheDirective?
        for directive in directives where directive.name == name {
            guard let earlier = first else {
                first = directive
                continue
            }
            if earlier.value != directive.value { return 0 }
        }
        guard let directive = first else { return nil }
        guard let digits = directive.value else { return 0 }
        // Digits read as they come, capped at every step (no overflow, no second pass).
        var seconds = 0
        for byte in digits.utf8 {
            guard byte >= 0x30 && byte <= 0x39 else { return 0 }
            seconds = min(seconds * 10 + Int(byte - 0x30), maximumDeltaSeconds)
        }
        return seconds
    }

    /// `true` when `directive` is named `name` in any case (directive names are lower-cased
    /// tokens; comparing without case spares lower-casing `name` on every question).
    private static func isNamed(_ directive: CacheDirective, _ name: String) -> Bool {
        HTTPHeaders.equalsIgnoringCase(directive.name, name)
    }

    /// `no-store`
    public let noStore: Bool
    /// `no-cache`, with or without field names.
    public let noCache: Bool
    /// `private`, with or without field names.
    public let isPrivate: Bool
    /// `public`
    public let isPublic: Bool
    /// `max-age`
    public let maxAge: Int?
    /// `s-maxage`
    public let sharedMaxAge: Int?
    /// `must-revalidate`
    public let mustRevalidate: Bool
    /// `proxy-revalidate`
    public let proxyRevalidate: Bool
    /// `stale-while-revalidate` (RFC 5861 §3)
    public let staleWhileRevalidate: Int?
    /// `stale-if-error` (RFC 5861 §4)
    public let staleIfError: Int?
}
