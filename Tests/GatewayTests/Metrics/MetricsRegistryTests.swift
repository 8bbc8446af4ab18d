import Gateway
import Testing

struct MetricsRegistryTests {
    @Test func counter_CountsEveryIncrement_WhenManyTasksIncrementAtOnce() async {
        let counter = MetricsRegistry().counter("hits_total", help: "Hits.")
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<10_000 { counter.increment() }
                }
            }
        }
        #expect(counter.value == 80_000)
    }

    @Test func counter_IgnoresAmountsBelowOne() {
        let counter = MetricsRegistry().counter("hits_total", help: "Hits.")
        counter.increment(by: 5)
        counter.increment(by: -2)
        counter.increment(by: 0)
        #expect(counter.value == 5)
    }

    @Test func gauge_GoesUpAndDownAndIsSet() {
        let gauge = MetricsRegistry().gauge("open", help: "Open.")
        gauge.increment(by: 3)
        gauge.decrement()
        #expect(gauge.value == 2)
        gauge.set(7)
        #expect(gauge.value == 7)
    }

    @Test func histogram_CountsBoundValuesInTheirBucket_AndIgnoresNaN() {
        let histogram = Histogram(upperBounds: [1, 2, .infinity, .nan])
        histogram.observe(1)
        histogram.observe(1.5)
        histogram.observe(2)
        histogram.observe(9)
        histogram.observe(.nan)
        histogram.observe(Duration.milliseconds(500))

        #expect(histogram.upperBounds == [1, 2])
        let snapshot = histogram.snapshot
        #expect(snapshot.cumulativeCounts == [2, 4])
        #expect(snapshot.count == 5)
        #expect(snapshot.sum == 14)
    }

    @Test func family_ReturnsTheSameSeries_ForEqualLabels() {
        let family = MetricsRegistry().counter("requests_total", help: "Requests.", labels: PathLabels.self)
        family.labels(PathLabels(path: "/a")).increment()
        family.labels(PathLabels(path: "/a")).increment()
        family.labels(PathLabels(path: "/b")).increment()
        #expect(family.labels(PathLabels(path: "/a")).value == 2)
        #expect(family.collect().samples.map(\.value) == [2, 1])
    }

    @Test func callback_JoinsReadersSortsReadings_AndLeavesOutWrongLabelCounts() throws {
        let registry = MetricsRegistry()
        let metric = registry.callback("entries", help: "Entries.", type: .gauge, labelNames: ["level"])
        metric.addReader { [MetricReading(labelValues: ["memory"], value: 4)] }
        metric.addReader {
            [MetricReading(labelValues: ["disk"], value: 9), MetricReading(labelValues: ["disk", "extra"], value: 1)]
        }

        let families = try PrometheusTextParser.parse(registry.prometheusText())

        #expect(families.count == 1)
        #expect(families[0].type == "gauge")
        #expect(families[0].samples.map(\.labels) == [["level": "disk"], ["level": "memory"]])
        #expect(families[0].samples.map(\.value) == [9, 4])
    }
}
