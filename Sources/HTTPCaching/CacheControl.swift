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
        directives = parser.directives
    }

    /// Parses field values (one per field line).
    public init(fieldValues: [String]) {
        var parser = CacheControlParser()
        // Each value scanned over its own bytes (no copy).
        for var value in fieldValues { value.withUTF8 { parser.parse($0) } }
        directives = parser.directives
    }

    /// Parses one field value.
    public init(_ fieldValue: String) { self.init(fieldValues: [fieldValue]) }

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
    public func deltaSeconds(_ name: String) -> Int? {
        // One pass, no list of the occurrences made (this runs several times per stored answer).
        var first: CacheDirective?
        for directive in directives where Self.isNamed(directive, name) {
            guard let earlier = first else {
                first = directive
                continue
            }
            if earlier.value != directive.value { return 0 }
        }
        guard let directive = first else { return nil }
        guard let digits = directive.value, !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return 0 }
        return Int(digits).map { min($0, Self.maximumDeltaSeconds) } ?? Self.maximumDeltaSeconds
    }

    /// `true` when `directive` is named `name` in any case (directive names are lower-cased
    /// tokens; comparing without case spares lower-casing `name` on every question).
    private static func isNamed(_ directive: CacheDirective, _ name: String) -> Bool {
        HTTPHeaders.equalsIgnoringCase(directive.name, name)
    }

    /// `no-store`
    public var noStore: Bool { contains("no-store") }
    /// `no-cache`, with or without field names.
    public var noCache: Bool { contains("no-cache") }
    /// `private`, with or without field names.
    public var isPrivate: Bool { contains("private") }
    /// `public`
    public var isPublic: Bool { contains("public") }
    /// `max-age`
    public var maxAge: Int? { deltaSeconds("max-age") }
    /// `s-maxage`
    public var sharedMaxAge: Int? { deltaSeconds("s-maxage") }
    /// `must-revalidate`
    public var mustRevalidate: Bool { contains("must-revalidate") }
    /// `proxy-revalidate`
    public var proxyRevalidate: Bool { contains("proxy-revalidate") }
    /// `stale-while-revalidate` (RFC 5861 §3)
    public var staleWhileRevalidate: Int? { deltaSeconds("stale-while-revalidate") }
    /// `stale-if-error` (RFC 5861 §4)
    public var staleIfError: Int? { deltaSeconds("stale-if-error") }
}
