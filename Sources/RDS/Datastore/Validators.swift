/// The validators of a stored value, used for conditional revalidation.
public struct Validators: Sendable, Hashable, Codable {
    /// The entity tag, exactly as the upstream sent it (quotes and `W/` included).
    public var etag: String?
    /// The `Last-Modified` date, exactly as the upstream sent it.
    public var lastModified: String?

    /// Creates validators.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// `true` when there is nothing to revalidate with.
    public var isEmpty: Bool { etag == nil && lastModified == nil }
}
