#if canImport(Glibc)
import Glibc
#endif

// The fuzzer's `main`. SwiftPM links an executable's entry point under the
// name `SmashtagFuzz_main` (`--defsym main=…`), which hides libFuzzer's own
// `main`; so the entry point hands over to libFuzzer's driver explicitly.

/// libFuzzer's driver (FuzzerDriver.cpp): parses the flags, runs the input callback.
@_extern(c, "LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
