import Foundation
import Stages

/// `smashtag report`: options, wiring of the stages, output, exit status.
struct ReportCommand {
    var terms: [Term] = []
    var paths: [String] = []
    /// `--format` and `-o, --output FILE`.
    var output = ReportOutput()
    var minCount = 2
    var top: Int?
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    var strict = false
    var quiet = false
    var maxRecord = 16 << 20
    var progress = ProgressDisplay.Mode.auto
    var statsPath: String?
    /// `--store FILE` (or `SMASHTAG_STORE` when no path is given): report from the store.
    var store: String?
    var wait = 5.0
    var mentionsFrom = MentionSource.entities
    var csvColumns = CSVColumns()

    /// Parses the arguments after `report`.
    ///
    /// - Throws: `UsageError` for anything that is not a valid invocation.
    init(arguments: [String]) throws(UsageError) {
        var a = ArgumentReader(arguments)
        var termFlags: [String] = []
        while let name = a.nextOption() {
            func value() throws(UsageError) -> String { try a.value() }
            let inline = a.inlineValue
            if try output.parse(name, &a) { continue }
            switch name {
            case "-h", "--help": throw UsageError.help(Usage.report)
            case "-t", "--term": termFlags.append(try value())
            case "--min-count": minCount = try a.number(min: 1)
            case "--top": top = try a.number(min: 1)
            case "-j", "--jobs": jobs = try a.number(min: 1)
            case "--max-record": maxRecord = try a.bytes()
            case "--mentions-from":
                let v = try value()
                guard let m = MentionSource(rawValue: v) else {
                    throw UsageError("--mentions-from must be entities or text, not '\(v)'")
                }
                mentionsFrom = m
            case "--id-column": csvColumns.id = [try Self.column(try value(), name)]
            case "--text-column": csvColumns.text = [try Self.column(try value(), name)]
            case "--author-column": csvColumns.author = [try Self.column(try value(), name)]
            case "--strict": strict = true
            case "-q", "--quiet": quiet = true
            case "--progress":
                let v = inline ?? "terminal"
                guard let m = ProgressDisplay.Mode(rawValue: v), m != .auto else {
                    throw UsageError("--progress takes plain, terminal or off, as in --progress=plain, not '\(v)'")
                }
                progress = m
            case "--stats": statsPath = try value()
            case "--store": store = try value()
            case "--wait": wait = try StoreOptions.seconds(try value())
            default:
                throw UsageError.unknownOption(name, known: Self.options)
            }
        }
        try output.check()
        var positional = a.positional
        if let store {
            // With --store every positional is a term; a path is a mistake worth naming.
            if let path = positional.first(where: { $0 == "-" || access($0, F_OK) == 0 }) {
                throw UsageError("--store reports from the store alone, and '\(path)' is a path: ingest it first "
                                 + "(smashtag ingest \(path) --store \(store)), then report without paths")
            }
            termFlags += positional
            positional = []
        }
        terms = try Terms.parse(flags: termFlags, positional: &positional, command: "report")
        if store == nil && positional.isEmpty,
           let env = ProcessInfo.processInfo.environment[StoreOptions.environment], !env.isEmpty {
            store = env
        }
        paths = positional.isEmpty ? ["-"] : positional
    }

    static let options = ["--help", "--term", "--format", "--output", "--min-count", "--top", "--jobs", "--max-record",
                          "--strict", "--quiet", "--progress", "--stats", "--store", "--wait",
                          "--mentions-from", "--id-column", "--text-column", "--author-column"]

    private static func column(_ s: String, _ name: String) throws(UsageError) -> String {
        guard !s.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("\(name) needs a column name") }
        return s
    }

    /// Runs the report; returns the exit status.
    func run() -> Int32 {
        let started = DispatchTime.now()
        if let store { return reportFromStore(store, started: started) }
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
        let aggregator = Aggregator(terms: terms)
        let outcome = run.run(plan.units, control: control, into: aggregator)
        display.finish()
        if let code = interrupts.exitStatus() { return code }
        if strict, let p = control.stoppingProblem {
            console.warn(p.description)
            console.warn("stopped: --strict stops at the first bad input (leave it off to skip and count bad input)")
            return 1
        }
        let reports = aggregator.reports(minCount: minCount, top: top)
        let problems = plan.problems + outcome.problems
        let badRecords = outcome.stats.badRecords + plan.problems.count
        let counts = plan.problems.map { ($0.origin, 1) } + outcome.problemCounts
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let summary = RunSummary(stats: outcome.stats, reports: reports, duplicates: aggregator.duplicates,
                                 problems: problems, problemCounts: counts, badRecords: badRecords, elapsed: elapsed)
        let document = ReportDocument(reports: reports, summary: summaryItems(summary))
        if let code = output.write(document, console: console, interrupts: interrupts) { return code }
        console.reportProblems(problems, counts: counts, total: badRecords)
        // The summary is for people (stderr a terminal) and logs (--progress=plain).
        if !quiet && (mode == .terminal || mode == .plain || (progress == .auto && isatty(2) == 1)) {
            Console.writeStderr(summary.text)
        }
        if let statsPath, !writeStats(summary.json, to: statsPath, console: console, interrupts: interrupts) { return 1 }
        interrupts.cancel()
        if outcome.stats.records == 0 && outcome.stats.failures + plan.problems.count > 0 { return 1 }  // nothing at all could be read
        return 0
    }
}

extension ReportCommand {
    /// `report --store`: the same report, from the store alone (SPEC §10).
    func reportFromStore(_ path: String, started: DispatchTime) -> Int32 {
        do {
            let store = try Store(path: path, access: .read, wait: wait)
            let reports = try store.reports(terms, minCount: minCount, top: top)
            let interrupts = InterruptHandler(control: RunControl(strict: false))
            defer { interrupts.cancel() }
            let document = ReportDocument(reports: reports, summary: storeSummaryItems(path, tweets: try store.tweetCount))
            if let code = output.write(document, console: Console(quiet: quiet), interrupts: interrupts) { return code }
            if !quiet {
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
                Console.writeStderr("smashtag: store \(VisibleText.escaped(path)), \(try store.tweetCount) tweets; matched "
                                    + reports.map { "\($0.term): \($0.tweets)" }.joined(separator: ", ")
                                    + String(format: "; %.2f s\n", elapsed))
            }
            return 0
        } catch let error as StoreError {
            return storeFailure(error)
        } catch {
            return usageFailure(UsageError("\(error)"), usageLine: "usage: smashtag report TERM... --store FILE [options]")
        }
    }
}

extension ReportCommand {
    /// What a report for people says of the run (its Summary sheet or section).
    func summaryItems(_ s: RunSummary) -> [ReportDocument.Item] {
        var items: [ReportDocument.Item] = [
            .init("terms", .text(terms.map(\.description).joined(separator: ", "))),
            .init("inputs", .text(paths.prefix(10).joined(separator: ", ")
                                  + (paths.count > 10 ? ", … and \(paths.count - 10) more" : ""))),
            .init("files and members read", .number(s.inputs)),
            .init("bytes read", .number(Int(s.bytes))),
            .init("tweets read", .number(s.tweets)),
            .init("duplicates dropped", .number(s.duplicates)),
        ]
        if s.badRecords > 0 { items.append(.init("bad records skipped", .number(s.badRecords))) }
        items.append(.init("options", .text(optionsText)))
        items.append(.init("when", .time(Date())))
        items.append(.init("smashtag", .text(Usage.version)))
        return items
    }

    /// The same for a report from the store.
    func storeSummaryItems(_ path: String, tweets: Int) -> [ReportDocument.Item] {
        [
            .init("terms", .text(terms.map(\.description).joined(separator: ", "))),
            .init("store", .text(path)),
            .init("tweets in the store", .number(tweets)),
            .init("options", .text(optionsText)),
            .init("when", .time(Date())),
            .init("smashtag", .text(Usage.version)),
        ]
    }

    /// `--min-count 2 --top 20 --mentions-from entities`: what decides the rows.
    private var optionsText: String {
        var parts = ["--min-count \(minCount)"]
        if let top { parts.append("--top \(top)") }
        if store == nil { parts.append("--mentions-from \(mentionsFrom.rawValue)") }
        if strict { parts.append("--strict") }
        return parts.joined(separator: " ")
    }
}
