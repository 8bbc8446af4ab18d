import Foundation
import HTTPCaching
import HTTP1
import Testing

struct HTTPDateParserTests {
    /// 1994-11-06T08:49:37Z, the example of RFC 9110 §5.6.7.
    static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func parse_ReadsEachFormat_OfRFC9110(_ text: String) {
        #expect(HTTPDateParser.parse(text) == Self.example)
    }

    @Test(arguments: [
        "0", "", "yesterday", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 32 Nov 1994 08:49:37 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:49:37 PST",
        "-1", "Sun, 06 Nov 19945 08:49:37 GMT",
        // RFC 9110 §5.6.7, strictly: none of these is one of the three forms.
        "Sun 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37", "Sun, 6 Nov 1994 08:49:37 GMT",
        "Sun, 06-Nov-1994 08:49:37 GMT", "Sunday, 06 Nov 94 08:49:37 GMT", "sun, 06 nov 1994 08:49:37 gmt",
        "Sun, 06 Nov 1994 08:49:37 GMT extra", "1994-11-06T08:49:37Z", "Sun Nov 6 08:49:37 1994",
        "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC",
    ])
    func parse_ReturnsNil_ForAnythingButTheThreeForms_RFC9110_5_6_7(_ text: String) {
        #expect(HTTPDateParser.parse(text) == nil)
    }

    @Test func parse_ReadsWhatHTTP1Writes_AcrossCenturyAndLeapDays() {
        for seconds in stride(from: 0, through: 86_400 * 365 * 80, by: 86_400 * 37 + 4_321) {
            let text = String(decoding: HTTPDate.format(secondsSince1970: seconds), as: UTF8.self)
            #expect(HTTPDateParser.parse(text) == Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
        #expect(HTTPDateParser.parse("Tue, 29 Feb 2000 00:00:00 GMT") == Date(timeIntervalSince1970: 951_782_400))
    }

    @Test func parseRecent_AnswersEachTextWithItsOwnDate_WhenTextsAlternate() {
        let later = "Sun, 06 Nov 1994 08:49:38 GMT"
        let texts = ["Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT", later, "yesterday", later, ""]
        for text in texts + texts.reversed() {
            #expect(HTTPDateParser.parseRecent(text) == HTTPDateParser.parse(text), "\(text)")
        }
        #expect(HTTPDateParser.parseRecent(later) == Self.example.addingTimeInterval(1))
    }
}
