import RDS
import Synchronization

/// The whole error chain behind the current request's problem answer, kept for its log line
/// (anonymous clients see less of it; see ``ProblemAudience``).
final class ProblemLog: Sendable {
    private let chain = Mutex<ErrorChain?>(nil)

    /// The log of the request the current task answers, bound by ``InstrumentedHandler``.
    @TaskLocal static var current: ProblemLog?

    /// Keeps `chain` (the last one recorded wins).
    func record(_ chain: ErrorChain) { self.chain.withLock { $0 = chain } }

    /// The chain as one log field, outermost link first:
    /// `code: message {key=value, …} <- code: message`; `nil` when none was recorded.
    var field: String? {
        chain.withLock { $0 }.map { chain in
            chain.links.map { link in
                let details = link.details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                let suffix = details.isEmpty ? "" : " {\(details.joined(separator: ", "))}"
                return "\(link.code): \(link.message)\(suffix)"
            }.joined(separator: " <- ")
        }
    }
}
