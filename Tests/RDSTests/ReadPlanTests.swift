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
