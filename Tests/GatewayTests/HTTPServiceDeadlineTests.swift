import Foundation
import Gateway
import RDS
import RDSTesting
import Testing

/// ``HTTPService/get(_:ifChangedFrom:within:)``: a fetch deadline ends the call through the
/// transport's total timeout, over real sockets to a silent upstream.
@Suite(.timeLimit(.minutes(1)))
struct HTTPServiceDeadlineTests {
    /// Timers on a clock that never moves: a deadline raced on them would never fire.
    static let stoppedTimers = RefreshScheduler(clock: ManualClock())

    static func service(port: Int, transport: any Transport, credentials: [any CredentialProvider] = [])
        -> HTTPService
    {
        HTTPService(
            name: "demo", baseURL: URL(string: "http://127.0.0.1:\(port)")!,
            timeouts: UpstreamTimeouts(connect: 30, firstByte: 30, total: 30), credentials: credentials,
            transport: transport)
    }

    @Test(arguments: HTTPServiceSocketTests.transports)
    func deadline_EndsTheCall_ThroughTheTransportsTotalTimeout(_ makeTransport: @Sendable () -> any Transport)
        async throws
    {
        let upstream = try RawSocketUpstream { _, _ in nil }
        defer { upstream.stop() }
        let deadline = FetchDeadline(date: Date().addingTimeInterval(0.5), timers: Self.stoppedTimers)
        await #expect(throws: FetchDeadline.Exceeded.self) {
            try await Self.service(port: upstream.port, transport: makeTransport())
                .get(ResourceKey(repository: "r", path: "/slow"), ifChangedFrom: nil, within: deadline)
        }
        #expect(await upstream.requests(atLeast: 1).count == 1)
    }

    @Test func deadline_AlreadyPassed_SendsNothing() async throws {
        let upstream = try RawSocketUpstream { _, _ in nil }
        defer { upstream.stop() }
        let deadline = FetchDeadline(date: Date().addingTimeInterval(-1), timers: Self.stoppedTimers)
        await #expect(throws: FetchDeadline.Exceeded.self) {
            try await Self.service(port: upstream.port, transport: HTTP1Transport())
                .get(ResourceKey(repository: "r", path: "/slow"), ifChangedFrom: nil, within: deadline)
        }
        #expect(upstream.connections == 0)
    }

    @Test func deadline_WithCredentialProviders_IsRacedOnItsTimers() async throws {
        let upstream = try RawSocketUpstream { _, _ in nil }
        defer { upstream.stop() }
        let credential = SecretCredentialProvider(
            reader: SecretReader(.environment("K"), what: "API key", environment: ["K": "k"]),
            placement: .queryParameter("key"))
        let service = Self.service(port: upstream.port, transport: HTTP1Transport(), credentials: [credential])
        let timers = RefreshScheduler(clock: SystemClock())
        defer { timers.stop() }
        let deadline = FetchDeadline(date: Date().addingTimeInterval(0.5), timers: timers)
        await #expect(throws: FetchDeadline.Exceeded.self) {
            try await service.get(ResourceKey(repository: "r", path: "/slow"), ifChangedFrom: nil, within: deadline)
        }
    }

    @Test func deadline_LaterThanTheTotalTimeout_LeavesTheTimeoutAnError() async throws {
        let upstream = try RawSocketUpstream { _, _ in nil }
        defer { upstream.stop() }
        let service = HTTPService(
            name: "demo", baseURL: URL(string: "http://127.0.0.1:\(upstream.port)")!,
            timeouts: UpstreamTimeouts(connect: 30, firstByte: 30, total: 0.5), transport: HTTP1Transport())
        let deadline = FetchDeadline(date: Date().addingTimeInterval(60), timers: Self.stoppedTimers)
        let error = await #expect(throws: ServiceError.self) {
            try await service.get(ResourceKey(repository: "r", path: "/slow"), ifChangedFrom: nil, within: deadline)
        }
        #expect(error?.kind == .timeout)
    }
}
