import Glibc

/// Tunes glibc's allocator for a process that moves large bodies (Glibc's Swift module does not
/// export `mallopt`, so it is reached through `dlsym`).
///
/// By default glibc raises its mmap threshold each time a large block is freed (up to 32 MiB),
/// so after the first large answers every later body comes from the heap arenas, and their
/// freed pages stay in the process: 40 concurrent 16 MB misses left RSS at hundreds of MiB.
/// A fixed threshold of 128 KiB keeps every large body in its own mapping, returned to the
/// system the moment it is freed.
enum AllocatorTuning {
    /// `M_MMAP_THRESHOLD` in `<malloc.h>`.
    private static let mmapThreshold: Int32 = -3

    /// Applies the tuning; `false` when `mallopt` is not available or refuses.
    @discardableResult
    static func returnLargeBlocksToTheSystem() -> Bool {
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
        return unsafeBitCast(symbol, to: MallOpt.self)(mmapThreshold, 128 * 1_024) == 1
    }
}
