/// How a flight of the single-flight table began, handed to its fetch.
struct FlightStart: Sendable {
    /// The flight's identity, for ``InFlightTable/beginStore(_:claim:)``.
    let id: UInt64
    /// `false` when no fetch answer has been stored and no write begun (of any key) since the
    /// caller that started the flight looked the key up: nothing it did not see can have been
    /// stored for the key (by this process), so the fetch need not look again. `true` when one may have, or when
    /// the caller did not say when it looked.
    let storeChangedSinceLookup: Bool
}
