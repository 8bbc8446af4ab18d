import Testing

@testable import RDS

/// ``InFlightTable/join(_:previous:restingState:lookedUpAt:operation:)``: a flight tells its fetch
/// whether a fetch answer was stored, or a write began, since its caller's lookup
/// (``FlightStart/storeChangedSinceLookup``), so that the fetch looks the key up again only then.
@Suite(.timeLimit(.minutes(1)))
struct InFlightTableLookupTests {
    private typealias Table = InFlightTable<String, String>

    private static func makeTable() -> Table {
        Table(broadcasters: StateBroadcasterRegistry()) { _ in .initialized }
    }

    /// Whether the flight `table` starts for "k" is told that the store changed since `lookedUpAt`.
    private static func changedSinceLookup(in table: Table, lookedUpAt: UInt64?) async throws -> Bool {
        let answer = try await table.join("k", previous: nil, lookedUpAt: lookedUpAt) { start in
            let answer = RepositoryAnswer(
                value: start.storeChangedSinceLookup ? "changed" : "unchanged", entry: nil, cacheStatus: .miss)
            return FlightOutcome(result: .success(answer), state: .initialized)
        }
        return answer.value == "changed"
    }

    @Test func flight_IsToldNothingChanged_WhenNothingWasStoredSinceTheLookup() async throws {
        let table = Self.makeTable()
        let lookedUpAt = table.changeCount
        #expect(try await !Self.changedSinceLookup(in: table, lookedUpAt: lookedUpAt))
    }

    @Test func flight_IsToldTheStoreChanged_WhenAFetchAnswerWasStoredSinceTheLookup() async throws {
        let table = Self.makeTable()
        let lookedUpAt = table.changeCount
        #expect(table.beginStore("other", claim: .noWriteSince(table.writeCount)))
        table.endStore("other")
        #expect(try await Self.changedSinceLookup(in: table, lookedUpAt: lookedUpAt))
    }

    @Test func flight_IsToldTheStoreChanged_WhenAWriteBeganSinceTheLookup() async throws {
        let table = Self.makeTable()
        let lookedUpAt = table.changeCount
        await table.supersede("other")
        #expect(try await Self.changedSinceLookup(in: table, lookedUpAt: lookedUpAt))
    }

    @Test func flight_IsToldTheStoreChanged_WhenTheCallerDidNotLookUp() async throws {
        #expect(try await Self.changedSinceLookup(in: Self.makeTable(), lookedUpAt: nil))
    }
}
