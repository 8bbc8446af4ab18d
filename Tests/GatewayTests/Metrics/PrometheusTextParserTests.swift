import Testing

/// The strict parser must reject what Prometheus rejects, or the rendering tests prove nothing.
struct PrometheusTextParserTests {
    @Test(arguments: [
        ("a_total 1\n", "sample before any TYPE"),
        ("# TYPE a counter\na_total 1\n", "does not belong"),
        ("# TYPE a counter\na{x=\"1\"} 1\na{x=\"1\"} 2\n", "series repeated"),
        ("# TYPE a counter\na{x=\"\\t\"} 1\n", "bad escape"),
        ("# TYPE a counter\na{x=\"1\",x=\"2\"} 1\n", "repeated"),
        ("# TYPE a counter\na -1\n", "counter a is"),
        ("# TYPE a gauge\na one\n", "bad value"),
        ("# TYPE a gauge\na  1\n", "bad value"),
        ("# TYPE a gauge\na 1", "end with a newline"),
        ("# TYPE a gauge\n\na 1\n", "empty line"),
        ("# TYPE a gauge\n# TYPE a gauge\n", "declared twice"),
        ("# HELP b help\n# TYPE a gauge\n", "precedes TYPE"),
        ("# a comment\n", "only '# HELP"),
        ("# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n", "not cumulative"),
        ("# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n", "no +Inf bucket"),
        ("# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 1\n", "!= _count"),
        ("# TYPE h histogram\nh_bucket{le=\"+Inf\"} 1\nh_count 1\n", "_sum or _count missing"),
        (
            "# TYPE h histogram\nh_bucket{le=\"2\"} 1\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n",
            "le not ascending"
        ),
    ])
    func parse_RejectsMalformedText(text: String, reason: String) {
        #expect {
            _ = try PrometheusTextParser.parse(text)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func parse_ReadsFamiliesSamplesAndEscapedLabels() throws {
        let text = """
            # HELP h Latency with a \\\\ and\\nnewline.
            # TYPE h histogram
            h_bucket{path="a\\"b\\\\c\\nd",le="0.5"} 1
            h_bucket{path="a\\"b\\\\c\\nd",le="+Inf"} 3
            h_sum{path="a\\"b\\\\c\\nd"} 2.5
            h_count{path="a\\"b\\\\c\\nd"} 3
            # TYPE g gauge
            g NaN

            """
        let families = try PrometheusTextParser.parse(text)
        #expect(families.map(\.name) == ["h", "g"])
        #expect(families[0].help == "Latency with a \\ and\nnewline.")
        #expect(families[0].samples.first?.labels == ["path": "a\"b\\c\nd", "le": "0.5"])
        #expect(families[0].samples.last?.value == 3)
        #expect(families[1].samples.first?.value.isNaN == true)
    }
}
