import Foundation

/// Timing and memory probes for the benchmark.
enum Measurement {
    /// Runs `body` and returns how many operations per second it managed for `operations` operations.
    static func rate(operations: Int, _ body: () async throws -> Void) async rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await body()
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(operations) / seconds
    }

    /// Runs `body` and returns the process's CPU time (user and system, every thread) per
    /// operation for `operations` operations, in microseconds: unlike a rate, it barely depends on
    /// what else the machine runs.
    static func cpuMicroseconds(operations: Int, _ body: () async throws -> Void) async rethrows -> Double {
        let start = processCPUSeconds()
        try await body()
        return (processCPUSeconds() - start) * 1e6 / Double(operations)
    }

    private static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The resident set size of this process in bytes, from `/proc/self/status` (`VmRSS`).
    static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            return kilobytes.map { $0 * 1_024 }
        }
        return nil
    }

    /// `value` with thousands separators, e.g. `1,234,567`.
    static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var result = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0 && index % 3 == 0 && character != "-" { result.append(",") }
            result.append(character)
        }
        return String(result.reversed())
    }

    /// `bytes` in MiB with one decimal.
    static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }
}
