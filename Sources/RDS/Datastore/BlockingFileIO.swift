#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The blocking file system calls of ``FileDatastore``, always run on its I/O queues.
enum BlockingFileIO {
    /// The whole contents of the file at `path`, or `nil` when there is no such file.
    /// - Throws: ``FileSystemError`` for any other failure.
    static func readFile(at path: String) throws(FileSystemError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .current("open")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .current("fstat") }
        let size = Int(status.st_size)
        var failure: FileSystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            while initialized < size {
                let count = read(descriptor, base + initialized, size - initialized)
                if count > 0 {
                    initialized += count
                } else if count == 0 {
                    return
                } else if errno != EINTR {
                    failure = .current("read")
                    return
                }
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Writes `bytes` to `temporaryPath`, then renames it over `path` in one atomic step, so a
    /// reader (or a process killed mid-write) sees the old file or the new one, never a torn one.
    /// - Throws: ``FileSystemError``; the temporary file is removed and `path` is untouched.
    static func writeAtomically(_ bytes: [UInt8], to path: String, via temporaryPath: String) throws(FileSystemError) {
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .current("open") }
        var failure: FileSystemError?
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var written = 0
            while written < buffer.count {
                let count = write(descriptor, base + written, buffer.count - written)
                if count >= 0 {
                    written += count
                } else if errno != EINTR {
                    failure = .current("write")
                    return
                }
            }
        }
        if close(descriptor) != 0, failure == nil { failure = .current("close") }
        if failure == nil, rename(temporaryPath, path) != 0 { failure = .current("rename") }
        if let failure {
            unlink(temporaryPath)
            throw failure
        }
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

    /// The size of the file at `path`, or `nil` when there is none (or it cannot be examined).
    static func fileSize(at path: String) -> Int? {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : nil
    }

    /// Size and modification time of each file in the folder at `path` that `include` accepts;
    /// files that vanish meanwhile are skipped.
    static func fileInfos(inDirectory path: String, where include: (String) -> Bool) throws(FileSystemError)
        -> [FileInfo]
    {
        try fileNames(inDirectory: path).filter(include).compactMap { name in
            var status = stat()
            guard stat(path + "/" + name, &status) == 0 else { return nil }
            let modified = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
            return FileInfo(name: name, size: Int(status.st_size), modified: modified)
        }
    }
}
