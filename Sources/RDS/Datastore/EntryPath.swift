/// The path of one ``FileDatastore`` entry file, hashed by the digest that names the file (read
/// once, as the name is made): a table of files (the pending renewals) then hashes eight bytes
/// per lookup instead of the whole path.
struct EntryPath: Hashable, Sendable {
    /// The file's full path.
    let path: String
    /// The first eight bytes of the digest in the file's name.
    private let digestPrefix: Int

    /// The entry file at `path`, named by `digest` (as ``FileDatastore/location(of:)`` makes it).
    init(_ path: String, digest: [UInt8]) {
        self.path = path
        digestPrefix = digest.prefix(8).reduce(0) { $0 << 8 | Int($1) }
    }

    /// Equal when the paths are (the same path has the same digest in its name).
    static func == (lhs: EntryPath, rhs: EntryPath) -> Bool { lhs.path == rhs.path }

    /// Hashes the digest's first eight bytes.
    func hash(into hasher: inout Hasher) { hasher.combine(digestPrefix) }
}
