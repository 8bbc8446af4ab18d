import HTTP1
import Testing

/// A set of field names matches exactly its names, without case, whatever their length (those
/// of 64 bytes or more share one length bit), given as bytes or as strings.
struct HTTPFieldNamesTests {
    static let long = String(repeating: "x", count: 63) + "-Long"
    static let names = HTTPFieldNames(
        ["A", "Connection", "Transfer-Encoding", String(repeating: "y", count: 63), long])

    static func contains(_ name: String) -> Bool {
        let asBytes = Array(name.utf8).withUnsafeBytes { names.contains($0) }
        #expect(asBytes == names.contains(name), "\(name)")
        return asBytes
    }

    @Test func contains_MatchesItsNamesWithoutCase_OfAnyLength() {
        let names = [
            "a", "A", "CONNECTION", "connection", "transfer-encoding", String(repeating: "Y", count: 63),
            Self.long.uppercased(),
        ]
        for name in names { #expect(Self.contains(name), "\(name)") }
    }

    @Test func contains_RefusesOtherNames_OfTheSetsLengthsOrNot() {
        let others = [
            "", "B", "Keep-Alive", "Connectioo", "Content-Length", "Transfer-Encodinh",
            String(repeating: "y", count: 62), String(repeating: "y", count: 64),
            String(repeating: "x", count: 64) + "-Long", Self.long + "s",
        ]
        for name in others { #expect(!Self.contains(name), "\(name)") }
    }

    @Test func adding_MatchesTheSetsNamesAndTheAddedOnes_AndLeavesTheSetAsItWas() {
        let added = Self.names.adding(["Keep-Alive", "b"])
        for name in ["a", "connection", Self.long, "keep-alive", "B"] { #expect(added.contains(name), "\(name)") }
        for name in ["Content-Length", "c", "Keep-Alivf"] { #expect(!added.contains(name), "\(name)") }
        #expect(!Self.names.contains("Keep-Alive") && !Self.names.contains("b"))
    }
}
