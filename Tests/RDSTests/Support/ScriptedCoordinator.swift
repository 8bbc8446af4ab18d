import RDS
import Synchronization

/// A ``FetchCoordinator`` that answers as scripted: grant (counting releases), wait after running
/// `whileWaiting` (another process storing its answer), or hang until cancelled.
final class ScriptedCoordinator: FetchCoordinator {
    enum Script: Sendable {
        case grant
        case wait(whileWaiting: @Sendable () async -> Void)
        case hang
    }

    private let script: Script
    private let counts = Mutex((acquired: 0, released: 0))

    init(_ script: Script) {
        self.script = script
    }

    /// Leases asked for and released.
    var acquired: Int { counts.withLock { $0.acquired } }
    var released: Int { counts.withLock { $0.released } }

    func acquire(_ key: String) async -> FetchLease {
        counts.withLock { $0.acquired += 1 }
        switch script {
        case .grant:
            return .granted(release: { [self] in counts.withLock { $0.released += 1 } })
        case .wait(let whileWaiting):
            await whileWaiting()
            return .waited
        case .hang:
            try? await Task.sleep(for: .seconds(3_600))
            return .uncoordinated
        }
    }
}
