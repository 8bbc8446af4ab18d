import Foundation
import HTTP1

/// Which target runs: `FUZZ_TARGET=connection` drives `HTTPConnection`; otherwise the parsers.
let fuzzesConnection = ProcessInfo.processInfo.environment["FUZZ_TARGET"] == "connection"

/// libFuzzer's entry point: feeds the input to both parsers (or to a connection) and checks their
/// invariants; any violation traps, which libFuzzer records as a crash with the input that caused it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if fuzzesConnection {
        ConnectionChecks.check(bytes)
    } else {
        FuzzChecks.requests(bytes)
        FuzzChecks.responses(bytes)
    }
    return 0
}
