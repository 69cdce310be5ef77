// smashtag-bench: `make bench`'s driver (not part of the product).
//
//   smashtag-bench generate --out DIR [--mb 500] [--seed N]
//   smashtag-bench run --data DIR [--runs 3] [--pairs 11] [--term '#tag'] [--smashtag PATH]
//                      [--python PATH] [--peer PATH]
//   smashtag-bench generate-jetstream --out DIR [--mb 500] [--seed N]
//   smashtag-bench run-jetstream --data DIR [--runs 3] [--smashtag PATH]
//                      [--python PATH] [--peer PATH]
//
// `--allow-debug` lets a debug build run anyway (its numbers mean nothing).

import Foundation

let usage = """
    usage: smashtag-bench generate --out DIR [--mb 500] [--seed N]
           smashtag-bench run --data DIR [--runs 3] [--pairs 11] [--term '#tag'] [--smashtag PATH] [--python PATH] [--peer PATH]
           smashtag-bench generate-jetstream --out DIR [--mb 500] [--seed N]
           smashtag-bench run-jetstream --data DIR [--runs 3] [--smashtag PATH] [--python PATH] [--peer PATH]
    """

var args = Array(CommandLine.arguments.dropFirst())
if let i = args.firstIndex(of: "--allow-debug") {
    args.remove(at: i)
} else {
    #if DEBUG
    fail("this is a debug build, whose timings mean nothing: build with `swift build -c release --product smashtag-bench` (or pass --allow-debug)")
    #endif
}

func options(_ a: [String]) -> [String: String] {
    var out: [String: String] = [:]
    var i = 0
    while i < a.count {
        guard a[i].hasPrefix("--"), i + 1 < a.count else { fail("unexpected '\(a[i])'\n\(usage)") }
        out[String(a[i].dropFirst(2))] = a[i + 1]
        i += 2
    }
    return out
}

func intOption(_ o: [String: String], _ key: String, _ fallback: Int) -> Int {
    guard let s = o[key] else { return fallback }
    guard let v = Int(s), v > 0 else { fail("--\(key) wants a positive integer, not '\(s)'") }
    return v
}

switch args.first {
case "generate":
    let o = options(Array(args.dropFirst()))
    for k in o.keys where !["out", "mb", "seed"].contains(k) { fail("unknown option --\(k)\n\(usage)") }
    guard let out = o["out"] else { fail("generate needs --out DIR\n\(usage)") }
    generate(out: out, mb: intOption(o, "mb", 500), seed: UInt64(intOption(o, "seed", 20_261_129)))
case "generate-jetstream":
    let o = options(Array(args.dropFirst()))
    for k in o.keys where !["out", "mb", "seed"].contains(k) { fail("unknown option --\(k)\n\(usage)") }
    guard let out = o["out"] else { fail("generate-jetstream needs --out DIR\n\(usage)") }
    generateJetstream(out: out, mb: intOption(o, "mb", 500), seed: UInt64(intOption(o, "seed", 20_261_204)))
case "run", "run-jetstream":
    let o = options(Array(args.dropFirst()))
    for k in o.keys where !["data", "runs", "pairs", "term", "smashtag", "python", "peer"].contains(k) {
        fail("unknown option --\(k)\n\(usage)")
    }
    var r = RunOptions()
    r.data = o["data"] ?? r.data
    r.runs = intOption(o, "runs", r.runs)
    r.pairs = intOption(o, "pairs", r.pairs)
    r.term = o["term"] ?? r.term
    r.smashtag = o["smashtag"] ?? r.smashtag
    r.python = o["python"] ?? r.python
    if args.first == "run-jetstream" {
        if o["term"] != nil { fail("run-jetstream times '*' (every hashtag): it takes no --term") }
        r.data = o["data"] ?? ".build/bench-jetstream"
        r.peer = o["peer"] ?? "Benchmarks/duckdb_jetstream.py"
        runJetstream(r)
    } else {
        r.peer = o["peer"] ?? r.peer
        run(r)
    }
case "-h", "--help":
    print(usage)
default:
    fail("unknown command\n\(usage)")
}
