import Testing

import Gateway

struct RouteCapturesTests {
    @Test func captures_AreFoundByName_InTheRoutesOrder() throws {
        let template = try RouteTemplate(parsing: "/{country}/{city}/{rest...}")
        guard case .matched(let captures) = template.match("/uk/london/a/b") else {
            Issue.record("no match")
            return
        }
        #expect(captures.pairs.map(\.name) == ["country", "city", "rest"])
        #expect(captures["city"] == "london" && captures["rest"] == "a/b" && captures["town"] == nil)
    }

    @Test func setting_ReplacesAddsAndRemoves() {
        var captures: RouteCaptures = ["a": "1"]
        captures["a"] = "2"
        captures["b"] = "3"
        #expect(captures.pairs.map(\.value) == ["2", "3"])
        captures["a"] = nil
        #expect(captures.pairs.map(\.name) == ["b"])
        captures["c"] = "4"
        captures["d"] = "5"
        captures["c"] = "6"
        captures["d"] = nil
        #expect(captures.pairs.map(\.name) == ["b", "c"] && captures["c"] == "6" && captures["d"] == nil)
        captures["b"] = nil
        captures["c"] = nil
        #expect(captures.pairs.isEmpty && captures == [:])
    }

    @Test func equality_IgnoresOrder_ButNotValuesOrNames() {
        #expect(RouteCaptures(dictionaryLiteral: ("a", "1"), ("b", "2")) == ["b": "2", "a": "1"])
        #expect(RouteCaptures(dictionaryLiteral: ("a", "1")) != ["a": "2"])
        #expect(RouteCaptures(dictionaryLiteral: ("a", "1")) != ["a": "1", "b": "2"])
        #expect(RouteCaptures() == [:])
    }
}
