// `smashtag-bench run`: for each input, one warm-up per tool configuration,
// then `runs` rounds in alternating order; medians, MB/s, ratio to DuckDB,
// peak RSS, row counts and whether the rows equal DuckDB's.

import Foundation

struct RunOptions {
    var data = ".build/bench-data"
    var runs = 3
    var term = "#stanford"
    var smashtag = ".build/release/smashtag"
    var python = ".build/bench-venv/bin/python"
    var peer = "Benchmarks/duckdb_report.py"
    /// A word term, timed against the bench term (issue: every kind of term as cheap as a hashtag).
    var word = "love"
    /// The 32 top hashtags and 32 top users of the plain input, found before timing.
    var manyTerms: [String] = []
    /// Back-to-back pairs per ratio of two smashtag variants (`pairedRatio`).
    var pairs = 11
}

/// `pairs` and `pairsAll` are `smashtag pairs` on the bench term and on
/// `*` (SPEC §12.5): timed beside the report, no DuckDB counterpart.
enum Tool: String {
    case smashtag, duckdb, pairs = "smashtag pairs", pairsAll = "smashtag pairs '*'"
    case word = "smashtag (word term)", all = "smashtag '*'", many = "smashtag (64 terms)"
    /// SPEC §13: `'*'` with every kind, and a `domain:` term beside the bench's hashtag term.
    case allKinds = "smashtag '*' (every kind)", domain = "smashtag domain:nytimes.com"
    /// SPEC §15: `posts '*'`, timed beside `report '*'`.
    case postsAll = "smashtag posts '*'"
    /// SPEC §16 (`run-jetstream`): every hashtag of Jetstream lines, against
    /// DuckDB's `read_json` of the same report; `'*'` with users (printed by
    /// handle) beside it.
    case bluesky = "smashtag '*' --kinds hashtag", duckdbBluesky = "duckdb (facets and record.tags)"
    case blueskyUsers = "smashtag '*' (hashtags and users)"

    var isPeer: Bool { self == .duckdb || self == .duckdbBluesky }
}

struct Config {
    let tool: Tool
    let jobs: Int
    var slug: String {
        switch tool {
        case .smashtag: return "smashtag-j\(jobs)"
        case .duckdb: return "duckdb-t\(jobs)"
        case .pairs: return "pairs-j\(jobs)"
        case .pairsAll: return "pairs-all-j\(jobs)"
        case .word: return "word-j\(jobs)"
        case .all: return "all-j\(jobs)"
        case .many: return "many-j\(jobs)"
        case .allKinds: return "all-kinds-j\(jobs)"
        case .domain: return "domain-j\(jobs)"
        case .postsAll: return "posts-all-j\(jobs)"
        case .bluesky: return "bluesky-j\(jobs)"
        case .duckdbBluesky: return "duckdb-bluesky-t\(jobs)"
        case .blueskyUsers: return "bluesky-users-j\(jobs)"
        }
    }
}

struct Input {
    let name: String
    let slug: String
    let path: String            // what smashtag reads
    let duckdbReads: Bool       // whether DuckDB can read it (not the tar of .bz2)
    let configs: [Config]
}

struct Measured {
    let input: Input
    let config: Config
    var times: [Double] = []
    var cpuTimes: [Double] = []
    var maxRSSKiB = 0
    var rows: [[UInt8]] = []    // sorted data rows (no header)
    var tweets = 0              // distinct matching tweets, summed over terms (from --stats)
    var output = Data()
    var median: Double { medianOf(times) }
    var cpuMedian: Double { medianOf(cpuTimes) }
}

func medianOf(_ v: [Double]) -> Double {
    let s = v.sorted()
    guard !s.isEmpty else { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func sortedRows(_ data: Data) -> [[UInt8]] {
    var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).map { Array($0) }
    if !lines.isEmpty { lines.removeFirst() }     // header
    return lines.sorted { $0.lexicographicallyPrecedes($1) }
}

func fileSize(_ path: String) -> Int {
    let fm = FileManager.default
    var isDir: ObjCBool = false
    guard fm.fileExists(atPath: path, isDirectory: &isDir) else { return 0 }
    if !isDir.boolValue { return ((try? fm.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0 }
    let names = (try? fm.contentsOfDirectory(atPath: path)) ?? []
    return names.reduce(0) { $0 + fileSize(path + "/" + $1) }
}

func argv(_ c: Config, _ input: Input, _ o: RunOptions) -> [String] {
    switch c.tool {
    case .smashtag:
        return [o.smashtag, "report", o.term, input.path, "--format", "csv", "--min-count", "1",
                "--quiet", "--jobs", "\(c.jobs)"]
    case .duckdb:
        return [o.python, o.peer, "--threads", "\(c.jobs)", "--min-count", "1", "-t", o.term, input.path]
    case .pairs, .pairsAll:
        return [o.smashtag, "pairs", c.tool == .pairs ? o.term : "*", input.path, "--format", "csv", "--min-count", "1",
                "--quiet", "--jobs", "\(c.jobs)"]
    case .word, .all, .many:
        let terms = c.tool == .word ? [o.word] : c.tool == .all ? ["*"] : o.manyTerms
        return [o.smashtag, "report"] + terms.flatMap { ["-t", $0] } + [input.path, "--format", "csv", "--min-count", "1",
                "--quiet", "--jobs", "\(c.jobs)"]
    case .allKinds:
        return [o.smashtag, "report", "*", input.path, "--kinds", "hashtag,user,symbol,url,host,domain,poster",
                "--format", "csv", "--min-count", "1", "--quiet", "--jobs", "\(c.jobs)"]
    case .domain:
        return [o.smashtag, "report", "domain:nytimes.com", input.path, "--format", "csv", "--min-count", "1",
                "--quiet", "--jobs", "\(c.jobs)"]
    case .postsAll:
        return [o.smashtag, "posts", "*", input.path, "--format", "csv", "--min-count", "1", "--quiet", "--jobs", "\(c.jobs)"]
    case .bluesky, .blueskyUsers:
        return [o.smashtag, "report", "*", input.path] + (c.tool == .bluesky ? ["--kinds", "hashtag"] : [])
            + ["--format", "csv", "--min-count", "1", "--quiet", "--jobs", "\(c.jobs)"]
    case .duckdbBluesky:
        return [o.python, o.peer, "--threads", "\(c.jobs)", "--min-count", "1", input.path]
    }
}

/// The 64 terms of the many-terms row: the 32 top hashtags and 32 top users of `path`.
func topTerms(_ o: RunOptions, path: String, outDir: String) -> [String] {
    let out = outDir + "/top-terms.csv"
    let r = spawnMeasured([o.smashtag, "report", "*", path, "--format", "csv", "--top", "32", "--quiet"],
                          stdout: out, stderr: outDir + "/top-terms.err")
    guard r.exitStatus == 0, let text = try? String(contentsOfFile: out, encoding: .utf8) else { fail("cannot find the top terms of \(path)") }
    return text.split(separator: "\n").dropFirst().compactMap { $0.split(separator: ",").dropFirst(2).first.map(String.init) }
}

func runOnce(_ m: inout Measured, _ o: RunOptions, outDir: String, warmup: Bool) {
    let out = outDir + "/\(m.input.slug)-\(m.config.slug).csv"
    let err = outDir + "/\(m.input.slug)-\(m.config.slug).err"
    prefetch(m.input.path)
    let stats = outDir + "/\(m.input.slug)-\(m.config.slug).stats.json"
    var args = argv(m.config, m.input, o)
    if !m.config.tool.isPeer { args += ["--stats", stats] }
    let r = spawnMeasured(args, stdout: out, stderr: err)
    guard r.exitStatus == 0 else {
        let msg = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        fail("\(argv(m.config, m.input, o).joined(separator: " ")) exited \(r.exitStatus)\n\(msg.suffix(2000))")
    }
    let data = FileManager.default.contents(atPath: out) ?? Data()
    if warmup {
        m.output = data
        m.rows = sortedRows(data)
        if let json = FileManager.default.contents(atPath: stats),
           let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
           let matched = object["matched"] as? [String: Int] {
            m.tweets = matched.values.reduce(0, +)
        }
    } else {
        if data != m.output { note("warning: \(m.input.slug) \(m.config.slug): output differs between runs") }
        m.times.append(r.seconds)
        m.cpuTimes.append(r.cpuSeconds)
    }
    m.maxRSSKiB = max(m.maxRSSKiB, r.maxRSSKiB)
    note(String(format: "  %@ %@ %@ %.2f s (cpu %.2f s), %d MiB, %d rows", m.input.slug, m.config.slug,
                warmup ? "warm-up" : "run", r.seconds, r.cpuSeconds, r.maxRSSKiB / 1024, m.rows.count))
}

func versionMillis(_ o: RunOptions, outDir: String) -> Double {
    var times: [Double] = []
    for i in 0..<22 {
        let r = spawnMeasured([o.smashtag, "--version"], stdout: outDir + "/version.out", stderr: outDir + "/version.err")
        if r.exitStatus != 0 { fail("smashtag --version exited \(r.exitStatus)") }
        if i >= 2 { times.append(r.seconds * 1000) }
    }
    times.sort()
    return (times[9] + times[10]) / 2
}

/// The ratio of two variants' times measured side by side: `pairs` pairs
/// run back to back, in the order A B, B A, A B, … (so neither always runs
/// second), after one warm-up each. The main rounds run a dozen variants
/// between two runs of one; on a shared VM their medians drift with what
/// ran before them, most for the variants that touch most memory, while
/// two runs seconds apart meet the same machine.
struct PairedRatio {
    var a: [Double] = [], b: [Double] = []
    /// Median of B over median of A.
    var ratio: Double { medianOf(b) / medianOf(a) }
    /// The least and greatest ratio within one pair.
    var spread: (Double, Double) {
        let r = zip(a, b).map { $1 / $0 }
        return (r.min() ?? .nan, r.max() ?? .nan)
    }
}

func pairedRatio(_ ma: Measured, _ mb: Measured, _ o: RunOptions, outDir: String) -> PairedRatio {
    var x = ma, y = mb, p = PairedRatio()
    note("\(ma.config.slug) against \(mb.config.slug), \(o.pairs) pairs back to back:")
    for k in 0..<o.pairs {
        x.times.removeAll(); y.times.removeAll()
        if k % 2 == 0 {
            runOnce(&x, o, outDir: outDir, warmup: false); runOnce(&y, o, outDir: outDir, warmup: false)
        } else {
            runOnce(&y, o, outDir: outDir, warmup: false); runOnce(&x, o, outDir: outDir, warmup: false)
        }
        p.a.append(x.times[0]); p.b.append(y.times[0])
    }
    return p
}

func machineFacts(_ o: RunOptions) -> [String] {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
        .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) } ?? "?"
    let commit = shellOutput("git rev-parse --short HEAD") ?? "?"
    let dirty = (shellOutput("git status --porcelain -- Sources Package.swift") ?? "").isEmpty ? "" : " (with uncommitted changes under Sources/)"
    let duck = shellOutput("\(shellQuote(o.python)) -c 'import duckdb; print(duckdb.__version__)'") ?? "?"
    let py = shellOutput("\(shellQuote(o.python)) -c 'import platform; print(platform.python_version())'") ?? "?"
    let swift = shellOutput("swift --version 2>&1 | head -1") ?? "?"
    let version = shellOutput("\(shellQuote(o.smashtag)) --version | head -1") ?? "?"
    var imports: [Double] = []
    for _ in 0..<5 {
        let r = spawnMeasured([o.python, "-c", "import duckdb"], stdout: "/dev/null", stderr: "/dev/null")
        imports.append(r.seconds)
    }
    return [
        "- machine: \(ProcessInfo.processInfo.activeProcessorCount) cores (nproc), \(model), "
            + String(format: "%.0f GiB RAM", Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824),
        "- smashtag: \(version), git \(commit)\(dirty), release build",
        "- DuckDB \(duck) from PyPI (Python \(py)), `SET threads = 2`; its times include starting Python and "
            + String(format: "`import duckdb` (%.2f s, median of 5)", medianOf(imports)),
        "- \(swift)",
    ]
}

func run(_ options: RunOptions) {
    var o = options
    let fm = FileManager.default
    let d = o.data
    for f in ["stream.jsonl", "split", "stream.jsonl.zst", "members.tar"] where !fm.fileExists(atPath: d + "/" + f) {
        fail("\(d)/\(f) is missing: run `smashtag-bench generate --out \(d)` first")
    }
    if !fm.fileExists(atPath: d + "/stream.jsonl.gz") {
        // Data generated before the one-stream gzip input: made from the stream as `generate` makes it.
        note("making \(d)/stream.jsonl.gz (one gzip member of stream.jsonl)")
        guard shell(oneGzipCommand(d)) else { fail("gzip of \(d)/stream.jsonl failed") }
    }
    for f in [o.smashtag, o.python, o.peer] where !fm.fileExists(atPath: f) { fail("\(f) is missing") }
    let outDir = d + "/out"
    try? fm.createDirectory(atPath: outDir, withIntermediateDirectories: true)
    // A private copy of the binary: a rebuild in the work tree during the
    // bench must not change what is measured halfway.
    let copy = outDir + "/smashtag"
    try? fm.removeItem(atPath: copy)
    do { try fm.copyItem(atPath: o.smashtag, toPath: copy) } catch { fail("cannot copy \(o.smashtag): \(error)") }
    o.smashtag = copy
    let contentBytes = fileSize(d + "/stream.jsonl")
    let mb = Double(contentBytes) / 1e6

    let s2 = Config(tool: .smashtag, jobs: 2), s1 = Config(tool: .smashtag, jobs: 1)
    let duck = Config(tool: .duckdb, jobs: 2)
    let pairs2 = Config(tool: .pairs, jobs: 2), pairsAll2 = Config(tool: .pairsAll, jobs: 2)
    let word2 = Config(tool: .word, jobs: 2), all2 = Config(tool: .all, jobs: 2), many2 = Config(tool: .many, jobs: 2)
    let kinds2 = Config(tool: .allKinds, jobs: 2), domain2 = Config(tool: .domain, jobs: 2)
    let posts2 = Config(tool: .postsAll, jobs: 2)
    o.manyTerms = topTerms(o, path: d + "/stream.jsonl", outDir: outDir)
    let inputs = [
        Input(name: "plain .jsonl", slug: "plain", path: d + "/stream.jsonl", duckdbReads: true,
              configs: [s2, s1, duck, word2, all2, many2, pairs2, pairsAll2, kinds2, domain2, posts2]),
        Input(name: "8 × .jsonl.gz", slug: "gz8", path: d + "/split", duckdbReads: true, configs: [s2, duck]),
        Input(name: "one .jsonl.gz", slug: "gz1", path: d + "/stream.jsonl.gz", duckdbReads: true, configs: [s2, s1, duck]),
        Input(name: ".jsonl.zst", slug: "zst", path: d + "/stream.jsonl.zst", duckdbReads: true, configs: [s2, s1, duck]),
        Input(name: "tar of 16 .json.bz2", slug: "tar", path: d + "/members.tar", duckdbReads: false, configs: [s2, s1]),
    ]

    let facts = machineFacts(o)
    let pressureStart = cpuPressureMicros()
    let clockStart = monotonicSeconds()
    var results: [Measured] = []
    for input in inputs {
        note("\(input.name):")
        var ms = input.configs.map { Measured(input: input, config: $0) }
        for i in ms.indices { runOnce(&ms[i], o, outDir: outDir, warmup: true) }
        for round in 0..<o.runs {
            let order = round % 2 == 0 ? Array(ms.indices) : Array(ms.indices.reversed())
            for i in order { runOnce(&ms[i], o, outDir: outDir, warmup: false) }
        }
        results += ms
    }
    func measured(_ c: Config) -> Measured { results.first { $0.input.slug == "plain" && $0.config.slug == c.slug }! }
    let kindsPaired = pairedRatio(measured(all2), measured(kinds2), o, outDir: outDir)
    let postsPaired = pairedRatio(measured(all2), measured(posts2), o, outDir: outDir)
    let versionMs = versionMillis(o, outDir: outDir)
    var pressure = ""
    if let a = pressureStart, let b = cpuPressureMicros() {
        pressure = String(format: "; CPU pressure (PSI some: share of time some task waited for a core) over the whole run: %.0f%%",
                          (b - a) / 1e6 / (monotonicSeconds() - clockStart) * 100)
    }

    // The reference rows: DuckDB's on the same input, else DuckDB's on the plain file.
    func duckdbRows(_ input: Input) -> [[UInt8]]? {
        let slug = input.duckdbReads ? input.slug : "plain"
        return results.first { $0.input.slug == slug && $0.config.tool == .duckdb }?.rows
    }
    func duckdbMedian(_ input: Input) -> Double? {
        results.first { $0.input.slug == input.slug && $0.config.tool == .duckdb }?.median
    }
    func median(_ slug: String, _ c: Config) -> Double {
        results.first { $0.input.slug == slug && $0.config.slug == c.slug }?.median ?? .nan
    }

    var lines: [String] = []
    lines.append("Term `\(o.term)`, `--min-count 1`, \(o.runs) timed runs after one warm-up per tool, alternating order; "
                 + String(format: "MB/s = %.1f MB of JSON lines (all inputs hold the same lines) / median wall time.", mb))
    lines.append("")
    lines += facts
    lines.append(String(format: "- load average at the end: %@%@",
                        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?",
                        pressure))
    lines.append("")
    lines.append("| input | tool | jobs | median s | MB/s | ratio vs DuckDB | peak RSS MB | rows | matching tweets | same as DuckDB | CPU s (user+sys) |")
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    for m in results {
        let ratio: String
        if let dm = duckdbMedian(m.input) { ratio = String(format: "%.2f", dm / m.median) } else { ratio = "n/a" }
        let same: String
        if m.config.tool == .duckdb { same = "(reference)" } else if m.config.tool != .smashtag { same = "n/a" } else if let ref = duckdbRows(m.input) {
            let ok = ref == m.rows
            same = (ok ? "yes" : "**NO**") + (m.input.duckdbReads ? "" : " (vs plain)")
        } else { same = "n/a" }
        lines.append(String(format: "| %@ | %@ | %d | %.3f | %.0f | %@ | %.0f | %d | %@ | %@ | %.2f |",
                            m.input.name, m.config.tool.rawValue, m.config.jobs, m.median, mb / m.median,
                            ratio, Double(m.maxRSSKiB) / 1024, m.rows.count, m.config.tool == .duckdb ? "n/a" : String(m.tweets),
                            same, m.cpuMedian))
    }
    lines.append("")
    lines.append("| input file | size on disk MB |")
    lines.append("|---|---:|")
    for input in inputs {
        lines.append(String(format: "| %@ | %.1f |", (input.path as NSString).lastPathComponent + (input.slug == "gz8" ? "/ (8 files)" : ""),
                            Double(fileSize(input.path)) / 1e6))
    }
    lines.append("")

    let smashtagRSS = results.filter { $0.config.tool == .smashtag }.map(\.maxRSSKiB).max() ?? 0
    func check(_ what: String, _ value: Double, _ goal: String, _ ok: Bool, _ fmt: String = "%.2f") {
        lines.append("| \(what) | " + String(format: fmt, value) + " | \(goal) | \(ok ? "met" : "**not met**") |")
    }
    lines.append("| figure | measured | goal | |")
    lines.append("|---|---:|---|---|")
    let plain = median("plain", duck) / median("plain", s2)
    check("plain .jsonl: DuckDB s / smashtag s (jobs 2)", plain, ">= 3.0", plain >= 3.0)
    let word = median("plain", word2) / median("plain", s2)
    check("word term `\(o.word)` s / `\(o.term)` s", word, "<= 1.5", word <= 1.5)
    let all = median("plain", all2) / median("plain", s2)
    check("`'*'` s / `\(o.term)` s", all, "<= 1.3", all <= 1.3)
    let many = median("plain", many2) / median("plain", s2)
    check("64 terms (32 top hashtags, 32 top users) s / one term s", many, "<= 1.3", many <= 1.3)
    let gz = median("gz8", duck) / median("gz8", s2)
    check("8 × .gz: DuckDB s / smashtag s", gz, ">= 3.0", gz >= 3.0)
    let gz1 = median("gz1", duck) / median("gz1", s2)
    check("one .jsonl.gz: DuckDB s / smashtag s", gz1, ">= 2.5", gz1 >= 2.5)
    let zst = median("zst", duck) / median("zst", s2)
    check(".zst: DuckDB s / smashtag s", zst, ">= 2.5", zst >= 2.5)
    let gz1Jobs = median("gz1", s1) / median("gz1", s2)
    check("one .jsonl.gz: jobs 1 s / jobs 2 s", gz1Jobs, ">= 1.5", gz1Jobs >= 1.5)
    let zstJobs = median("zst", s1) / median("zst", s2)
    check(".zst: jobs 1 s / jobs 2 s", zstJobs, ">= 1.5", zstJobs >= 1.5)
    let tar = median("tar", s1) / median("tar", s2)
    check("tar of .bz2: jobs 1 s / jobs 2 s", tar, ">= 1.8", tar >= 1.8)
    let pj = median("plain", s1) / median("plain", s2)
    check("plain .jsonl: jobs 1 s / jobs 2 s", pj, ">= 1.7", pj >= 1.7)
    check("smashtag peak RSS, MB (max over runs)", Double(smashtagRSS) / 1024, "<= 200", smashtagRSS <= 200 * 1024, "%.0f")
    let pairsRatio = median("plain", pairs2) / median("plain", s2)
    check("plain .jsonl: `pairs` s / `report` s (jobs 2)", pairsRatio, "<= 1.3", pairsRatio <= 1.3)
    let pairsAllRSS = results.first { $0.config.slug == pairsAll2.slug }?.maxRSSKiB ?? 0
    check("`pairs '*'` peak RSS, MB", Double(pairsAllRSS) / 1024, "<= 300", pairsAllRSS <= 300 * 1024, "%.0f")
    let kindsRatio = median("plain", kinds2) / median("plain", all2)
    check("plain .jsonl: `'*'` every kind s / `'*'` s (jobs 2), medians of the rounds", kindsRatio, "<= 1.4", kindsRatio <= 1.4)
    check(String(format: "the same, %d pairs back to back (one pair: %.2f to %.2f)", o.pairs, kindsPaired.spread.0, kindsPaired.spread.1),
          kindsPaired.ratio, "<= 1.4", kindsPaired.ratio <= 1.4)
    let domainRatio = median("plain", domain2) / median("plain", s2)
    check("plain .jsonl: `domain:nytimes.com` s / `#stanford` s (jobs 2)", domainRatio, "<= 1.2", domainRatio <= 1.2)
    let kindsRSS = results.first { $0.config.slug == kinds2.slug }?.maxRSSKiB ?? 0
    check("`'*'` every kind peak RSS, MB", Double(kindsRSS) / 1024, "<= 200", kindsRSS <= 200 * 1024, "%.0f")
    let postsRatio = median("plain", posts2) / median("plain", all2)
    check("plain .jsonl: `posts '*'` s / `report '*'` s (jobs 2), medians of the rounds", postsRatio, "<= 1.3", postsRatio <= 1.3)
    check(String(format: "the same, %d pairs back to back (one pair: %.2f to %.2f)", o.pairs, postsPaired.spread.0, postsPaired.spread.1),
          postsPaired.ratio, "<= 1.3", postsPaired.ratio <= 1.3)
    check("`smashtag --version`, ms (median of 20)", versionMs, "< 20", versionMs < 20, "%.1f")
    let allSame = results.filter { $0.config.tool == .smashtag }.allSatisfy { duckdbRows($0.input) == $0.rows }
    lines.append("")
    lines.append(allSame ? "Rows: every smashtag run produced exactly DuckDB's rows (sorted CSV term,type,mention,count)."
                         : "Rows: **smashtag's rows differ from DuckDB's**; the outputs are in \(outDir)/.")
    print(lines.joined(separator: "\n"))
}
