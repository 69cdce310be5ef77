/// libFuzzer's callback: one input through `FuzzCheck` (FuzzCheck.swift is
/// the regression tests' own file, linked here) for the run's target; a
/// broken property traps, so libFuzzer saves the input as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data!, count: size))
    if let broken = FuzzCheck.run(bytes, target: fuzzTarget) { fatalError(broken) }
    return 0
}
