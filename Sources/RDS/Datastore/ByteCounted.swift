/// A type that knows roughly how many bytes it occupies, so a ``MemoryDatastore`` can bound its size.
public protocol ByteCounted {
    /// The approximate payload size in bytes.
    var byteCount: Int { get }
}
