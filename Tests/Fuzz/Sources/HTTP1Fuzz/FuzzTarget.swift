import HTTP1

/// libFuzzer's entry point: feeds the input to both parsers and checks their invariants; any
/// violation traps, which libFuzzer records as a crash with the input that caused it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    FuzzChecks.requests(bytes)
    FuzzChecks.responses(bytes)
    return 0
}
