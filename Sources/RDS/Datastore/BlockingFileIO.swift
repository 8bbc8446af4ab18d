import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if os(Linux)
    /// `O_NOATIME` (asm-generic/fcntl.h, x86-64 and arm64 alike): the Glibc module does not
    /// declare it (it needs `_GNU_SOURCE`).
    private let noAccessTimeFlag: Int32 = 0o1000000
#else
    /// No such flag elsewhere.
    private let noAccessTimeFlag: Int32 = 0
#endif

/// The blocking file system calls of ``FileDatastore``, always run on its I/O queues.
enum BlockingFileIO {
    /// What reading an entry file found.
    enum EntryRead {
        /// No such file (or no such folder).
        case missing
        /// Something that cannot be an entry: not a regular file (`size` is `nil`), or a regular
        /// file of `size` bytes larger than allowed or not of the size its header announces.
        /// Its body was not read.
        case unusable(size: Int?)
        /// The whole contents of a regular file whose size matches its header.
        case contents([UInt8])
    }

    /// Files up to this size are read in one `read`, header and body at once; a larger one has its
    /// header read and checked first, so a planted or foreign large file is never read whole.
    static var wholeReadBytes: Int { 64 << 10 }

    /// Reads the entry file at `path`, looking at its type and its size before reading it, and at
    /// its first `headerSize` bytes before reading the rest of a file larger than ``wholeReadBytes``.
    /// One `open`, `fstat`, `read` (two for a large file) and `close`, into one buffer of the file's size.
    /// - Parameters:
    ///   - maxSize: The largest file accepted.
    ///   - headerSize: How many bytes `expectedSize` needs.
    ///   - expectedSize: The file size the header announces, `nil` for a header that is not one.
    /// - Throws: ``FileSystemError`` when the file exists but cannot be read.
    static func readEntryFile(
        at path: String, maxSize: Int, headerSize: Int, expectedSize: (UnsafeRawBufferPointer) -> Int?
    ) throws(FileSystemError) -> EntryRead {
        let (descriptor, size): (Int32, Int)
        switch try openEntryFile(at: path, maxSize: maxSize, headerSize: headerSize) {
        case .missing: return .missing
        case .unusable(let size): return .unusable(size: size)
        case .file(let opened, let openedSize): (descriptor, size) = (opened, openedSize)
        }
        defer { close(descriptor) }
        var failure: FileSystemError?
        var complete = false
        let contents = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            do throws(FileSystemError) {
                let first = size <= wholeReadBytes ? size : headerSize
                initialized = try readFully(descriptor, into: base, count: first)
                guard initialized == first,
                    expectedSize(UnsafeRawBufferPointer(start: base, count: headerSize)) == size
                else { return }
                initialized += try readFully(descriptor, into: base + first, count: size - first)
                complete = initialized == size
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return complete ? .contents(contents) : .unusable(size: size)
    }

    /// An entry file opened for reading, or why it was not.
    enum OpenedEntryFile {
        /// No such file (or no such folder).
        case missing
        /// Not a regular file (`size` is `nil`: a folder, a link), or one of `size` bytes out of bounds.
        case unusable(size: Int?)
        /// A regular file of `size` bytes within bounds, open as `descriptor` (the caller closes it).
        case file(descriptor: Int32, size: Int)
    }

    /// Opens the file at `path` for reading (never through a link, never waiting for a writer)
    /// and checks that it can be an entry: a regular file of `headerSize` to `maxSize` bytes.
    /// The read leaves the file's access time as it was (`O_NOATIME`): on a `relatime` file system
    /// the first read after each write would otherwise write the inode and start a journal
    /// transaction (~3.5 µs of kernel time, measured on ext4), which can wait for the journal.
    /// The cache never looks at access times. A file of another owner, which `O_NOATIME` may not
    /// open, is opened without it.
    /// - Throws: ``FileSystemError`` when the file exists but cannot be opened or examined.
    static func openEntryFile(at path: String, maxSize: Int, headerSize: Int) throws(FileSystemError) -> OpenedEntryFile {
        let flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
        var descriptor = open(path, flags | noAccessTimeFlag)
        if descriptor < 0, errno == EPERM { descriptor = open(path, flags) }
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return .missing
            case ELOOP: return .unusable(size: nil)
            default: throw .current("open")
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let failure = FileSystemError.current("fstat")
            close(descriptor)
            throw failure
        }
        let size = Int(status.st_size)
        guard status.st_mode & S_IFMT == S_IFREG, size >= headerSize, size <= maxSize else {
            close(descriptor)
            return .unusable(size: status.st_mode & S_IFMT == S_IFREG ? size : nil)
        }
        return .file(descriptor: descriptor, size: size)
    }

    /// Reads up to `count` bytes from the current offset of `descriptor` into `base` (fewer at the
    /// end of the file) and returns how many it read.
    private static func readFully(
        _ descriptor: Int32, into base: UnsafeMutablePointer<UInt8>, count: Int
    ) throws(FileSystemError) -> Int {
        var done = 0
        while done < count {
            let read = read(descriptor, base + done, count - done)
            if read > 0 {
                done += read
            } else if read == 0 {
                break
            } else if errno != EINTR {
                throw .current("read")
            }
        }
        return done
    }

    /// Opens the regular file at `path` for writing without truncating it, or creates it when
    /// there is none; whatever else stands there (a folder, a link, a named pipe, a file with
    /// another name elsewhere, which a write in place would change too) is removed first.
    /// - Returns: The descriptor, and the file's size before (`nil` when it was created).
    /// - Throws: ``FileSystemError`` (`ENOENT` when the folder is missing).
    static func openForRewrite(at path: String) throws(FileSystemError) -> (descriptor: Int32, previousSize: Int?) {
        // O_NONBLOCK: a named pipe without a reader fails (ENXIO) instead of waiting for one.
        let existing = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        let openError = errno
        if existing >= 0 {
            var status = stat()
            let examined = fstat(existing, &status) == 0
            let failure = FileSystemError.current("fstat")
            if examined, status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1 {
                return (existing, Int(status.st_size))
            }
            close(existing)
            guard examined else { throw failure }
        } else if openError != ENOENT {
            // A folder (EISDIR), a link (ELOOP) or a pipe (ENXIO) named like the entry is in the way.
            guard [EISDIR, ELOOP, ENXIO].contains(openError) else {
                throw FileSystemError(operation: "open", errorNumber: openError)
            }
        }
        if existing >= 0 || openError != ENOENT, !removeAnything(at: path) { throw .current("remove") }
        let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard created >= 0 else { throw .current("open") }
        return (created, nil)
    }

    /// Writes `bytes` over the file open as `descriptor` from its start, cuts it to their length
    /// when it was longer (`previousSize`), and closes it. No new inode and no rename: rewriting an
    /// entry costs a write into pages the file already has.
    /// - Throws: ``FileSystemError``; the file may then be torn (the caller removes it).
    static func overwrite(_ descriptor: Int32, with bytes: [UInt8], previousSize: Int?) throws(FileSystemError) {
        var failure: FileSystemError?
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var written = 0
            while written < buffer.count {
                let count = pwrite(descriptor, base + written, buffer.count - written, off_t(written))
                if count >= 0 {
                    written += count
                } else if errno != EINTR {
                    failure = .current("write")
                    return
                }
            }
        }
        if failure == nil, (previousSize ?? 0) > bytes.count, ftruncate(descriptor, off_t(bytes.count)) != 0 {
            failure = .current("ftruncate")
        }
        if close(descriptor) != 0, failure == nil { failure = .current("close") }
        if let failure { throw failure }
    }

    /// Removes the file at `path`; a missing file is not an error.
    static func removeFile(at path: String) throws(FileSystemError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw .current("unlink") }
    }

    /// The names of the entries of the folder at `path`, without `.` and `..`.
    static func fileNames(inDirectory path: String) throws(FileSystemError) -> [String] {
        guard let directory = opendir(path) else { throw .current("opendir") }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The size and modification time of a file.
    struct FileInfo {
        /// The file's name in its folder.
        let name: String
        /// Its size in bytes.
        let size: Int
        /// Its modification time, seconds since 1970.
        let modified: Double
    }

    /// What is at a path, without following a symbolic link.
    enum Item: Equatable {
        /// Nothing.
        case none
        /// A regular file of this many bytes.
        case file(size: Int)
        /// A folder, a link or anything else that is not a regular file.
        case other

        /// The size of a regular file, else `nil`.
        var size: Int? {
            if case .file(let size) = self { size } else { nil }
        }
    }

    /// What is at `path` (`.none` when it cannot be examined).
    static func item(at path: String) -> Item {
        var status = stat()
        guard lstat(path, &status) == 0 else { return .none }
        return status.st_mode & S_IFMT == S_IFREG ? .file(size: Int(status.st_size)) : .other
    }

    /// Removes whatever is at `path`, a folder with its contents included; `true` when it is gone.
    @discardableResult
    static func removeAnything(at path: String) -> Bool {
        if unlink(path) == 0 || errno == ENOENT { return true }
        return (try? FileManager.default.removeItem(atPath: path)) != nil
    }

    /// Creates the folder at `path` and its parents; `true` when it exists afterwards.
    static func createFolder(at path: String) -> Bool {
        (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil
    }

    /// Size and modification time of each regular file in the folder at `path` whose name
    /// `include` accepts and that has no other name (no hard link elsewhere: a save rewrites an
    /// entry in place, which must not change another file); files that vanish meanwhile are skipped.
    static func fileInfos(inDirectory path: String, where include: (String) -> Bool) throws(FileSystemError)
        -> [FileInfo]
    {
        try fileNames(inDirectory: path).filter(include).compactMap { name in
            var status = stat()
            guard lstat(path + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1
            else { return nil }
            let modified = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
            return FileInfo(name: name, size: Int(status.st_size), modified: modified)
        }
    }
}
