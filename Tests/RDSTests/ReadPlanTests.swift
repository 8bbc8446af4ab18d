import Foundation
import Testing

@testable import RDS

struct ReadPlanTests {
    private static let now = Date(timeIntervalSince1970: 1_000)
    private static let validators = Validators(etag: "\"e\"")

    private static func entry(expiresIn seconds: TimeInterval, lifetime: TimeInterval = 100) -> CacheEntry<String> {
        CacheEntry(
            value: "v", storedAt: now.addingTimeInterval(seconds - lifetime),
            expiresAt: now.addingTimeInterval(seconds),
            validators: validators)
    }

    private static func describe(_ plan: ReadPlan<String>) -> String {
        switch plan {
        case .serve(_, let status, let refresh): "serve(\(status), refresh: \(refresh))"
        case .fetch(let validators): "fetch(conditional: \(validators != nil))"
        }
    }

    @Test(
        arguments: [
            (nil, RepositoryPolicy(), ReadIntent.cached, "fetch(conditional: false)"),
            (10, RepositoryPolicy(), .cached, "serve(hit, refresh: false)"),
            (10, RepositoryPolicy(refreshAhead: 0.8), .cached, "serve(hit, refresh: true)"),
            (30, RepositoryPolicy(refreshAhead: 0.8), .cached, "serve(hit, refresh: false)"),
            (-10, RepositoryPolicy(), .cached, "fetch(conditional: true)"),
            (-10, RepositoryPolicy(staleWhileRevalidate: 20), .cached, "serve(stale, refresh: true)"),
            (-20, RepositoryPolicy(staleWhileRevalidate: 20), .cached, "fetch(conditional: true)"),
            (10, RepositoryPolicy(mode: .networkFirst), .cached, "fetch(conditional: true)"),
            (10, RepositoryPolicy(), .revalidate, "fetch(conditional: true)"),
            (10, RepositoryPolicy(), .reload, "fetch(conditional: false)"),
        ] as [(TimeInterval?, RepositoryPolicy, ReadIntent, String)])
    func make_ChoosesPlan(expiresIn: TimeInterval?, policy: RepositoryPolicy, intent: ReadIntent, expected: String) {
        let entry = expiresIn.map { Self.entry(expiresIn: $0) }
        #expect(Self.describe(ReadPlan.make(entry: entry, at: Self.now, policy: policy, intent: intent)) == expected)
    }
}

/// RFC 5861 per entry: the service's windows, bounded by the repository's, replace them.
extension ReadPlanTests {
    @Test func make_UsesTheEntrysOwnStaleWhileRevalidateWindow() {
        let policy = RepositoryPolicy(staleWhileRevalidate: 20)
        var entry = Self.entry(expiresIn: -10)
        entry.staleWhileRevalidate = 5
        #expect(
            Self.describe(ReadPlan.make(entry: entry, at: Self.now, policy: policy, intent: .cached))
                == "fetch(conditional: true)")
        entry.staleWhileRevalidate = 15
        #expect(
            Self.describe(ReadPlan.make(entry: entry, at: Self.now, policy: policy, intent: .cached))
                == "serve(stale, refresh: true)")
    }

    @Test func entry_TakesTheServicesWindows_BoundedByTheRepositorys() throws {
        let policy = RepositoryPolicy(staleWhileRevalidate: 20, staleIfError: 100)
        let freshness = Freshness(lifetime: 10, staleWhileRevalidate: 60, staleIfError: 30)
        let entry = try #require(policy.entry(for: "v", freshness: freshness, validators: Validators(), at: Self.now))
        #expect(entry.staleWhileRevalidate == 20)
        #expect(entry.staleIfError == 30)
        #expect(policy.canServeIfError(entry, at: Self.now.addingTimeInterval(39)))
        #expect(!policy.canServeIfError(entry, at: Self.now.addingTimeInterval(41)))
        let plain = try #require(
            policy.entry(for: "v", freshness: Freshness(lifetime: 10), validators: Validators(), at: Self.now))
        #expect(plain.staleWhileRevalidate == nil)
        #expect(policy.canServeIfError(plain, at: Self.now.addingTimeInterval(109)))
    }
}
