import Dispatch

/// A serial queue on which client connections do their I/O (their dispatch sources fire on it),
/// with the scratch buffer they read into: one per loop, so an idle pooled connection holds none.
///
/// Everything except `execute(_:)` runs on `queue`; hence `@unchecked Sendable`.
final class HTTPClientLoop: @unchecked Sendable {
    /// The serial queue all I/O of this loop's connections runs on.
    let queue: DispatchQueue
    /// The scratch buffer this loop's connections read into.
    let readBuffer: UnsafeMutableRawBufferPointer

    /// A loop with its own serial queue.
    init(label: String, readBufferSize: Int = 64 * 1_024) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
        readBuffer = .allocate(byteCount: readBufferSize, alignment: 16)
    }

    deinit { readBuffer.deallocate() }

    /// Runs `work` on the loop's queue.
    func execute(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }
}
