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

/// Writes `text` to standard error.
func say(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// What the inputs are read as: `FUZZ_TARGET` (stream, bluesky, mastodon,
/// links, trend or posts), stream when unset.
let fuzzTarget: FuzzCheck.Target = {
    let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? ""
    if name.isEmpty { return .stream }
    guard let target = FuzzCheck.Target(rawValue: name) else {
        say("SmashtagFuzz: FUZZ_TARGET must be one of \(FuzzCheck.Target.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'\n")
        exit(2)
    }
    return target
}()
say("SmashtagFuzz: target \(fuzzTarget.rawValue)\n")

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
