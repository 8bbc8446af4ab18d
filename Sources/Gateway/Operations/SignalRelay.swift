import Dispatch
import Foundation
import Synchronization

/// The write end of the relay's pipe, read by the signal handler (an atomic load is async-signal-safe).
private let relayWriteEnd = Atomic<Int32>(-1)

/// The POSIX signal handler: writes the signal number to the relay's pipe and nothing else.
private func relaySignal(_ number: Int32) {
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(relayWriteEnd.load(ordering: .relaxed), &byte, 1)
    errno = savedErrno
}

/// Carries POSIX signals to Swift closures through a self-pipe.
///
/// Dispatch signal sources are not used: on Linux they rely on `signalfd` and a blocked signal,
/// but the main thread of an async `main` waits in `sigsuspend` with every signal unblocked, so
/// the kernel may deliver the signal there and the source never sees it. A real handler
/// (`sigaction`) catches the signal on whatever thread receives it and writes one byte; a
/// dispatch read source on the pipe calls the listeners.
enum SignalRelay {
    /// Called on the relay's queue with the signal number.
    typealias Listener = @Sendable (Int32) -> Void

    private struct State {
        var listeners: [Int32: [Listener]] = [:]
        var readSource: (any DispatchSourceRead)?
    }

    private static let state = Mutex(State())
    private static let queue = DispatchQueue(label: "rds-gateway.signals")

    /// Calls `listener` for every later delivery of each of `signals`, whose default action
    /// (ending the process) no longer happens.
    static func listen(to signals: [Int32], _ listener: @escaping Listener) {
        state.withLock { state in
            if state.readSource == nil {
                state.readSource = makeReadSource()
            }
            for number in signals {
                if state.listeners[number] == nil {
                    install(number)
                }
                state.listeners[number, default: []].append(listener)
            }
        }
    }

    private static func install(_ number: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = relaySignal
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(number, &action, nil)
    }

    private static func makeReadSource() -> any DispatchSourceRead {
        var ends: [Int32] = [-1, -1]
        let made = pipe(&ends)
        precondition(made == 0, "cannot create the signal pipe: \(String(cString: strerror(errno)))")
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        relayWriteEnd.store(ends[1], ordering: .relaxed)
        let readEnd = ends[0]
        let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: queue)
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = bytes.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            for byte in bytes[..<count] {
                let number = Int32(byte)
                let listeners = state.withLock { $0.listeners[number] ?? [] }
                for listener in listeners { listener(number) }
            }
        }
        source.resume()
        return source
    }
}
