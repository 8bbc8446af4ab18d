import Synchronization

/// Observations counted into fixed buckets, with their sum and count, behind one small lock.
///
/// Each bucket holds only its own observations; rendering turns them into Prometheus'
/// cumulative `_bucket{le=…}` samples, ending with `le="+Inf"` equal to `_count`.
public final class Histogram: MetricSeries {
    /// The buckets' upper bounds, ascending and finite; `+Inf` is implied.
    public let upperBounds: [Double]
    private let state: Mutex<State>

    private struct State {
        /// One slot per upper bound, plus the last for values above them all.
        var bucketCounts: [Int]
        var sum: Double = 0
        var count: Int = 0
    }

    /// A histogram's counts read at one instant.
    public struct Snapshot: Sendable, Hashable {
        /// Cumulative counts, one per upper bound (observations ≤ that bound).
        public var cumulativeCounts: [Int]
        /// The sum of all observations.
        public var sum: Double
        /// The number of observations.
        public var count: Int
    }

    /// Creates an empty histogram.
    /// - Parameter upperBounds: The bucket bounds; sorted, de-duplicated, and stripped of
    ///   infinities and NaN here, so any list is accepted.
    public init(upperBounds: [Double]) {
        let bounds = Array(Set(upperBounds.filter(\.isFinite))).sorted()
        self.upperBounds = bounds
        self.state = Mutex(State(bucketCounts: Array(repeating: 0, count: bounds.count + 1)))
    }

    /// Histograms are written with `# TYPE … histogram`.
    public static var type: MetricType { .histogram }

    /// Counts one observation; NaN is ignored.
    public func observe(_ value: Double) {
        guard !value.isNaN else { return }
        let index = bucketIndex(for: value)
        state.withLock { state in
            state.bucketCounts[index] += 1
            state.sum += value
            state.count += 1
        }
    }

    /// Counts one duration of `nanoseconds`, in seconds.
    public func observe(nanoseconds: Int64) {
        observe(Double(nanoseconds) / 1e9)
    }

    /// Counts one duration, in seconds.
    public func observe(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        observe(Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// The current counts.
    public var snapshot: Snapshot {
        let (counts, sum, count) = state.withLock { ($0.bucketCounts, $0.sum, $0.count) }
        var running = 0
        var cumulative: [Int] = []
        cumulative.reserveCapacity(upperBounds.count)
        for index in upperBounds.indices {
            running += counts[index]
            cumulative.append(running)
        }
        return Snapshot(cumulativeCounts: cumulative, sum: sum, count: count)
    }

    /// Writes `_bucket` samples for every bound and `+Inf`, then `_sum` and `_count`.
    public func appendSamples(named name: String, labels: [MetricLabel], to samples: inout [MetricSample]) {
        let snapshot = snapshot
        for (bound, count) in zip(upperBounds, snapshot.cumulativeCounts) {
            let le = MetricLabel("le", PrometheusTextRenderer.format(bound))
            samples.append(MetricSample(name: name + "_bucket", labels: labels + [le], value: Double(count)))
        }
        let infinity = MetricLabel("le", "+Inf")
        samples.append(
            MetricSample(name: name + "_bucket", labels: labels + [infinity], value: Double(snapshot.count)))
        samples.append(MetricSample(name: name + "_sum", labels: labels, value: snapshot.sum))
        samples.append(MetricSample(name: name + "_count", labels: labels, value: Double(snapshot.count)))
    }

    /// Binary search for the first bound ≥ `value`; `upperBounds.count` when above them all.
    private func bucketIndex(for value: Double) -> Int {
        var low = 0
        var high = upperBounds.count
        while low < high {
            let middle = (low + high) / 2
            if upperBounds[middle] < value {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}
