import Foundation
import Stages

/// `smashtag pairs` (SPEC §12.5): which mentions go together among the
/// tweets matching each term. Reads as `report` does (the same run, terms,
/// inputs, dedup and store), counting pairs instead of mentions.
struct PairsCommand {
    var terms: [Term] = []
    var paths: [String] = []
    var format: PairFormat?
    var minCount = 2
    var top: Int?
    var withoutTerm = false
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    var strict = false
    var quiet = false
    var maxRecord = 16 << 20
    var progress = ProgressDisplay.Mode.auto
    var statsPath: String?
    var store: String?
    var wait = 5.0
    var mentionsFrom = MentionSource.entities
    var csvColumns = CSVColumns()

    static let usageLine = "usage: smashtag pairs TERM [PATH...] [options]"

    static let options = ["--help", "--term", "--format", "--min-count", "--top", "--without-term", "--jobs", "--max-record",
                          "--strict", "--quiet", "--progress", "--stats", "--store", "--wait",
                          "--mentions-from", "--id-column", "--text-column", "--author-column"]

    /// Parses the arguments after `pairs`.
    ///
    /// - Throws: `UsageError` for anything that is not a valid invocation.
    init(arguments: [String]) throws(UsageError) {
        var a = ArgumentReader(arguments)
        var termFlags: [String] = []
        while let name = a.nextOption() {
            let inline = a.inlineValue
            switch name {
            case "-h", "--help": throw UsageError.help(Usage.pairs)
            case "-t", "--term": termFlags.append(try a.value())
            case "--format": format = try Self.format(try a.value())
            case "--min-count": minCount = try a.number(min: 1)
            case "--top": top = try a.number(min: 1)
            case "--without-term": withoutTerm = true
            case "-j", "--jobs": jobs = try a.number(min: 1)
            case "--max-record": maxRecord = try a.bytes()
            case "--mentions-from":
                let v = try a.value()
                guard let m = MentionSource(rawValue: v) else {
                    throw UsageError("--mentions-from must be entities or text, not '\(v)'")
                }
                mentionsFrom = m
            case "--id-column": csvColumns.id = [try Self.column(try a.value(), name)]
            case "--text-column": csvColumns.text = [try Self.column(try a.value(), name)]
            case "--author-column": csvColumns.author = [try Self.column(try a.value(), name)]
            case "--strict": strict = true
            case "-q", "--quiet": quiet = true
            case "--progress":
                let v = inline ?? "terminal"
                guard let m = ProgressDisplay.Mode(rawValue: v), m != .auto else {
                    throw UsageError("--progress takes plain, terminal or off, as in --progress=plain, not '\(v)'")
                }
                progress = m
            case "--stats": statsPath = try a.value()
            case "--store": store = try a.value()
            case "--wait": wait = try StoreOptions.seconds(try a.value())
            case "--by", "--columns":
                throw UsageError("\(name) does not apply to pairs: a pair has one weight over the whole input "
                                 + "(SPEC §12.5); use `smashtag report \(name) ...` for mentions")
            default:
                throw UsageError.unknownOption(name, known: Self.options)
            }
        }
        var positional = a.positional
        if let store {
            if let path = positional.first(where: { $0 == "-" || access($0, F_OK) == 0 }) {
                throw UsageError("--store reads pairs from the store alone, and '\(path)' is a path: ingest it first "
                                 + "(smashtag ingest \(path) --store \(store)), then ask without paths")
            }
            termFlags += positional
            positional = []
        }
        terms = try Terms.parse(flags: termFlags, positional: &positional, command: "pairs")
        try Self.checkGraph(format, terms: terms)
        if store == nil && positional.isEmpty,
           let env = ProcessInfo.processInfo.environment[StoreOptions.environment], !env.isEmpty {
            store = env
        }
        paths = positional.isEmpty ? ["-"] : positional
    }

    static func format(_ v: String) throws(UsageError) -> PairFormat {
        guard let f = PairFormat(rawValue: v) else {
            throw UsageError("--format must be csv, json, ndjson, gexf or table, not '\(v)'")
        }
        return f
    }

    /// A GEXF document holds one graph: one term (a choice, written in the README).
    static func checkGraph(_ format: PairFormat?, terms: [Term]) throws(UsageError) {
        guard format == .gexf, terms.count > 1 else { return }
        throw UsageError("--format gexf writes one graph, for one term, and \(terms.count) terms were given "
                         + "(\(terms.map(\.description).joined(separator: " "))): run once per term, "
                         + "or use csv, json or ndjson for several")
    }

    private static func column(_ s: String, _ name: String) throws(UsageError) -> String {
        guard !s.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("\(name) needs a column name") }
        return s
    }

    /// Writes the pairs in the chosen format.
    ///
    /// - Returns: nil when written; else the exit status to end with: 0 when
    ///   stdout went away (a closed pipe ends the run quietly), 1 when the
    ///   GEXF could not be made.
    static func write(_ pairs: [TermPairs], format: PairFormat?) -> Int32? {
        let format = format ?? (isatty(1) == 1 ? .table : .csv)
        let text: String
        do {
            text = try PairWriter.render(pairs, as: format, width: Console.terminalWidth(),
                                         color: format == .table && Console.wantsColor(fd: 1))
        } catch {
            Console.writeStderr("smashtag: \(error)\n")
            return 1
        }
        return Console.writeStdout(text) ? nil : 0
    }

    /// Runs the count; returns the exit status.
    func run() -> Int32 {
        let started = DispatchTime.now()
        if let store { return pairsFromStore(store, started: started) }
        let plan = InputPlan(paths: paths, splitSize: Terms.splitSize())
        let control = RunControl(strict: strict)
        let console = Console(quiet: quiet)
        guard console.warnAbout(plan, strict: strict) else { return 1 }
        let interrupts = InterruptHandler(control: control)
        let mode: ProgressDisplay.Mode = quiet ? .off
            : progress == .auto ? (isatty(2) == 1 ? .terminal : .off) : progress
        let total: Int64? = plan.units.contains { $0.size == nil } ? nil : plan.units.reduce(0) { $0 + ($1.size ?? 0) }
        let display = ProgressDisplay(control: control, total: total, units: plan.units.count, mode: mode)
        display.start()
        let source = mentionsFrom
        var run = ParallelRun(terms: terms, jobs: jobs, maxRecord: maxRecord,
                              extractor: { source.makeExtractor() }, csvColumns: csvColumns)
        if let b = ProcessInfo.processInfo.environment["SMASHTAG_BATCH_BYTES"].flatMap(Int.init), b > 0 { run.batchBytes = b }
        let aggregator = PairAggregator(terms: terms)
        let outcome = run.run(plan.units, control: control, into: aggregator)
        display.finish()
        if let code = interrupts.exitStatus() { return code }
        interrupts.cancel()
        if strict, let p = control.stoppingProblem {
            console.warn(p.description)
            console.warn("stopped: --strict stops at the first bad input (leave it off to skip and count bad input)")
            return 1
        }
        let pairs = aggregator.pairs(minCount: minCount, top: top, withoutTerm: withoutTerm)
        if let status = Self.write(pairs, format: format) { return status }

        let problems = plan.problems + outcome.problems
        let badRecords = outcome.stats.badRecords + plan.problems.count
        let counts = plan.problems.map { ($0.origin, 1) } + outcome.problemCounts
        console.reportProblems(problems, counts: counts, total: badRecords)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        var summary = RunSummary(stats: outcome.stats, reports: [], duplicates: aggregator.duplicates,
                                 problems: problems, problemCounts: counts, badRecords: badRecords, elapsed: elapsed)
        summary.matched = pairs.map { ($0.term.description, $0.tweets) }
        if !quiet && (mode == .terminal || mode == .plain || (progress == .auto && isatty(2) == 1)) {
            Console.writeStderr(summary.text)
        }
        if let statsPath {
            do {
                try summary.json.write(toFile: statsPath, atomically: true, encoding: .utf8)
            } catch {
                console.warn("cannot write --stats \(statsPath): \(error.localizedDescription)")
            }
        }
        if outcome.stats.records == 0 && outcome.stats.failures + plan.problems.count > 0 { return 1 }
        return 0
    }

    /// `pairs --store`: the same pairs, from the store alone.
    func pairsFromStore(_ path: String, started: DispatchTime) -> Int32 {
        do {
            let store = try Store(path: path, access: .read, wait: wait)
            let pairs = try store.pairs(terms, minCount: minCount, top: top, withoutTerm: withoutTerm)
            if let status = Self.write(pairs, format: format) { return status }
            if !quiet {
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
                Console.writeStderr("smashtag: store \(path), \(try store.tweetCount) tweets; matched "
                                    + pairs.map { "\($0.term): \($0.tweets)" }.joined(separator: ", ")
                                    + String(format: "; %.2f s\n", elapsed))
            }
            return 0
        } catch let error as StoreError {
            return storeFailure(error)
        } catch {
            return usageFailure(UsageError("\(error)"), usageLine: "usage: smashtag pairs TERM... --store FILE [options]")
        }
    }
}
