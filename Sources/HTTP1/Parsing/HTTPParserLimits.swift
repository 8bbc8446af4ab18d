/// Size limits the parsers enforce while reading a message, each answered with its own status.
///
/// The defaults suit an API gateway; every limit is inclusive (a value exactly at the limit passes).
public struct HTTPParserLimits: Sendable, Hashable {
    /// The longest request line (or status line), CRLF excluded; past it: 414. Default 8 KiB.
    public var maxRequestLineBytes: Int
    /// The largest header section (field lines with their CRLFs and the final empty line),
    /// also applied to a chunked body's trailer section; past it: 431. Default 32 KiB.
    public var maxHeaderSectionBytes: Int
    /// The most header fields (and trailer fields); past it: 431. Default 100.
    public var maxHeaderCount: Int
    /// The largest body after de-chunking; past it: 413. Default 1 MiB.
    public var maxBodyBytes: Int

    /// Creates limits; every argument defaults to the documented value.
    public init(
        maxRequestLineBytes: Int = 8 * 1024, maxHeaderSectionBytes: Int = 32 * 1024, maxHeaderCount: Int = 100,
        maxBodyBytes: Int = 1024 * 1024
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderSectionBytes = maxHeaderSectionBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
    }
}
