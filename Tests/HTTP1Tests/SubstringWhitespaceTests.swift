import HTTP1
import Testing

struct SubstringWhitespaceTests {
    @Test(arguments: [(" \t a b\t ", "a b"), ("ab", "ab"), (" \t ", ""), ("", ""), ("\r x ", "\r x")])
    func trimmingWhitespace_DropsOnlyOuterSpacesAndTabs(input: String, expected: String) {
        #expect(input[...].trimmingWhitespace() == expected[...])
    }
}
