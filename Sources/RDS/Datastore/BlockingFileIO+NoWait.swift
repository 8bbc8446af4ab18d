#if canImport(Glibc)
    import Glibc

    /// `preadv2(2)`, looked up once: the Glibc module does not declare it (it needs `_GNU_SOURCE`).
    private let preadv2Function: (@convention(c) (Int32, UnsafePointer<iovec>?, Int32, off_t, Int32) -> Int)? =
        dlsym(nil, "preadv2").map { unsafeBitCast($0, to: (@convention(c) (Int32, UnsafePointer<iovec>?, Int32, off_t, Int32) -> Int).self) }

    /// `RWF_NOWAIT` (linux/fs.h): fail with `EAGAIN` rather than wait for the disk.
    private let readWithoutWaitingFlag: Int32 = 0x08
#endif

extension BlockingFileIO {
    /// Reads the whole entry file at `path` only if that needs no disk access: every page in the
    /// page cache (`preadv2` with `RWF_NOWAIT`), the file at most ``wholeReadBytes`` and of the
    /// size its header announces. Safe on an event loop: nothing here waits for the disk, apart
    /// from `open` on a file whose inode is not cached.
    /// - Returns: `.missing` when there is no such file, `.contents` when read whole; `nil` when
    ///   the read would wait, the system cannot tell, or anything is unusual (a folder, a link, a
    ///   size off its header, an error): the caller then reads on the file's queue.
    static func readCachedEntryFile(
        at path: String, maxSize: Int, headerSize: Int, expectedSize: (UnsafeRawBufferPointer) -> Int?
    ) -> EntryRead? {
        #if canImport(Glibc)
            guard let preadv2 = preadv2Function else { return nil }
            let (descriptor, size): (Int32, Int)
            switch try? openEntryFile(at: path, maxSize: min(maxSize, wholeReadBytes), headerSize: headerSize) {
            case .missing?: return .missing
            case .unusable?, nil: return nil
            case .file(let opened, let openedSize)?: (descriptor, size) = (opened, openedSize)
            }
            defer { close(descriptor) }
            var complete = false
            let contents = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                var vector = iovec(iov_base: UnsafeMutableRawPointer(buffer.baseAddress), iov_len: size)
                guard preadv2(descriptor, &vector, 1, 0, readWithoutWaitingFlag) == size else { return }
                initialized = size
                complete = expectedSize(UnsafeRawBufferPointer(start: buffer.baseAddress, count: headerSize)) == size
            }
            return complete ? .contents(contents) : nil
        #else
            return nil
        #endif
    }
}
