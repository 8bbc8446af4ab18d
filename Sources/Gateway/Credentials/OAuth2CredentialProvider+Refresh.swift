import Foundation
import RDS

extension OAuth2CredentialProvider {
    /// Starts the background refresher: it asks for a token at once, then again after
    /// `refreshFraction` of each token's lifetime, and after a failure retries with a backoff of
    /// 1, 2, 4 … 60 seconds on the clock. Calling it again does nothing.
    public func start() {
        state.withLock { state in
            guard state.refresher == nil, !state.stopped else { return }
            state.refresher = Task { await self.keepFresh() }
        }
    }

    /// Stops the background refresher (shutdown, or a reload that replaced this provider). A token
    /// request in flight still ends, for the requests waiting on it.
    public func stop() {
        let refresher = state.withLock { state in
            state.stopped = true
            return state.refresher
        }
        refresher?.cancel()
    }

    private func keepFresh() async {
        while !Task.isCancelled {
            let due = state.withLock { Self.nextRefresh($0) }
            if let due, due > clock.now {
                do { try await clock.sleep(until: due) } catch { return }
            }
            let now = clock.now
            let flight: Task<OAuth2Token, any Error>? = state.withLock { state in
                guard !state.stopped, Self.nextRefresh(state).map({ $0 <= now }) ?? true else { return nil }
                return state.flight ?? startFlight(&state)
            }
            _ = try? await flight?.value
        }
    }

    /// When the refresher should next ask: after a failure, its backoff; else the token's refresh
    /// time; `nil` (now) before the first token.
    private static func nextRefresh(_ state: State) -> Date? {
        if let failure = state.lastFailure {
            let exponent = Double(min(max(state.consecutiveFailures - 1, 0), 6))
            return failure.at + min(maxBackoff, pow(2, exponent))
        }
        return state.token?.refreshAt
    }
}
