import Gateway
import Testing

struct PrometheusTextRendererTests {
    @Test func render_EscapesLabelValuesAndHelp_SoTheyRoundTrip() throws {
        let registry = MetricsRegistry()
        let family = registry.counter("odd_total", help: "Counts \\ and\nlines.", labels: PathLabels.self)
        let awkward = "C:\\tmp\\\"quoted\"\nsecond line"
        family.labels(PathLabels(path: awkward)).increment(by: 3)

        let text = registry.prometheusText()
        let families = try PrometheusTextParser.parse(text)

        #expect(text.contains(#"odd_total{path="C:\\tmp\\\"quoted\"\nsecond line"} 3"#))
        #expect(families.first?.help == "Counts \\ and\nlines.")
        #expect(families.first?.samples.first?.labels["path"] == awkward)
        #expect(families.first?.samples.first?.value == 3)
    }

    @Test func render_WritesCumulativeBucketsInfinitySumAndCount() throws {
        let registry = MetricsRegistry()
        let family = registry.histogram(
            "latency_seconds", help: "Latency.", labels: PathLabels.self, buckets: [0.1, 1, 0.5])
        let histogram = family.labels(PathLabels(path: "/a"))
        for value in [0.05, 0.1, 0.3, 0.7, 2.0] { histogram.observe(value) }

        let text = registry.prometheusText()
        _ = try PrometheusTextParser.parse(text)

        #expect(
            text == """
                # HELP latency_seconds Latency.
                # TYPE latency_seconds histogram
                latency_seconds_bucket{path="/a",le="0.1"} 2
                latency_seconds_bucket{path="/a",le="0.5"} 3
                latency_seconds_bucket{path="/a",le="1"} 4
                latency_seconds_bucket{path="/a",le="+Inf"} 5
                latency_seconds_sum{path="/a"} 3.15
                latency_seconds_count{path="/a"} 5

                """)
    }

    @Test(arguments: [
        (1.0, "1"), (0.0, "0"), (-3.0, "-3"), (0.005, "0.005"), (2.5, "2.5"), (1e20, "1e+20"),
        (Double.infinity, "+Inf"), (-Double.infinity, "-Inf"), (Double.nan, "NaN"),
    ])
    func format_WritesPrometheusNumbers(value: Double, expected: String) {
        #expect(PrometheusTextRenderer.format(value) == expected)
    }

    @Test func render_OrdersFamiliesByNameAndSeriesByLabels_WhateverTheInsertionOrder() throws {
        func make(reversed: Bool) -> String {
            let registry = MetricsRegistry()
            let names = reversed ? ["b_total", "a_total"] : ["a_total", "b_total"]
            let paths = reversed ? ["/z", "/m", "/a"] : ["/a", "/m", "/z"]
            for name in names {
                let family = registry.counter(name, help: "Help.", labels: PathLabels.self)
                for path in paths { family.labels(PathLabels(path: path)).increment() }
            }
            return registry.prometheusText()
        }
        let text = make(reversed: false)
        let families = try PrometheusTextParser.parse(text)

        #expect(text == make(reversed: true))
        #expect(families.map(\.name) == ["a_total", "b_total"])
        #expect(families[0].samples.compactMap { $0.labels["path"] } == ["/a", "/m", "/z"])
    }

    @Test(arguments: [("ok_name:sub", true), ("9starts_with_digit", false), ("has-dash", false), ("", false)])
    func isValidMetricName_FollowsTheGrammar(name: String, valid: Bool) {
        #expect(PrometheusTextRenderer.isValidMetricName(name) == valid)
    }

    @Test(arguments: [("route", true), ("__reserved", false), ("with:colon", false), ("_x1", true)])
    func isValidLabelName_FollowsTheGrammar(name: String, valid: Bool) {
        #expect(PrometheusTextRenderer.isValidLabelName(name) == valid)
    }
}
