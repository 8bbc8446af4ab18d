/// Prints datastore throughput and memory figures; see ../../datastore-bench.sh.
@main
enum DatastoreBenchmark {
    static func main() async throws {
        await MemoryBenchmark.run()
        try await FileBenchmark.run()
    }
}
