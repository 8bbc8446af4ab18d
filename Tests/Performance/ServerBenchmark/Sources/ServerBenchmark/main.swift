// ServerBenchmark [port=8080] [eventLoopThreads=2]
// Serves a fixed 1 KiB JSON body from `respondImmediately` (the cache-hit fast path) on
// 127.0.0.1 until SIGINT or SIGTERM. Load it with ../shared/bench (see Tests/Performance/README.md).
import Dispatch
import Glibc
import HTTP1

let arguments = CommandLine.arguments
let port = arguments.count > 1 ? Int(arguments[1]) ?? 8080 : 8080
let threads = arguments.count > 2 ? Int(arguments[2]) ?? 2 : 2

/// `{"id":…,"payload":"xxx…"}` padded to exactly 1,024 bytes.
let body: [UInt8] = {
    let prefix = #"{"id":"bench","payload":""#
    let suffix = #""}"#
    return Array((prefix + String(repeating: "x", count: 1_024 - prefix.utf8.count - suffix.utf8.count) + suffix).utf8)
}()

/// Answers every request at once with the fixed body.
struct StaticBodyHandler: HTTPHandler {
    let response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], bytes: body)

    func respondImmediately(to request: inout HTTPRequest) -> HTTPResponse? { response }

    func handle(_ request: HTTPRequest) async -> HTTPResponse { response }
}

let server = HTTPServer(
    configuration: .init(host: "127.0.0.1", port: port, eventLoopThreads: threads), handler: StaticBodyHandler())
try await server.start()
print("ServerBenchmark listening on 127.0.0.1:\(server.port) with \(threads) event loops, pid \(getpid())")
fflush(nil)

let signals = [SIGINT, SIGTERM].map { number in
    signal(number, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
    source.setEventHandler { Task { await server.shutdown(gracePeriod: .seconds(2)) } }
    source.activate()
    return source
}
await server.waitUntilShutdown()
print("ServerBenchmark stopped (\(signals.count) signal handlers)")
