import Foundation
import Stages

/// `smashtag report`: options, wiring of the stages, output, exit status.
struct ReportCommand {
    var terms: [Term] = []
    var paths: [String] = []
    var format: ReportFormat?
    var minCount = 2
    var top: Int?
    /// How the inputs are read (`--jobs`, `--strict`, `--max-record`, `--mentions-from`, CSV columns).
    var input = InputOptions()
    /// `--since`, `--until`, `--retweets`, `--lang` and `--columns` (SPEC §12.2, §12.3).
    var filters = FilterOptions()
    var quiet = false
    var progress = ProgressDisplay.Mode.auto
    var statsPath: String?
    /// `--store FILE` (or `SMASHTAG_STORE` when no path is given): report from the store.
    var store: String?
    var wait = 5.0
    /// `--by` and `--tz` (SPEC §12.4): a series instead of one report per term.
    var buckets: TimeBuckets?

    /// Parses the arguments after `report`.
    ///
    /// - Throws: `UsageError` for anything that is not a valid invocation.
    init(arguments: [String]) throws(UsageError) {
        var a = ArgumentReader(arguments)
        var termFlags: [String] = []
        while let name = a.nextOption() {
            func value() throws(UsageError) -> String { try a.value() }
            let inline = a.inlineValue
            if try input.parse(name, &a) { continue }
            if try filters.parse(name, &a) { continue }
            switch name {
            case "-h", "--help": throw UsageError.help(Usage.report)
            case "-t", "--term": termFlags.append(try value())
            case "--format": format = try a.format()
            case "--min-count": minCount = try a.number(min: 1)
            case "--top": top = try a.number(min: 1)
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
        buckets = try filters.timeBuckets()
        // With --by, the store answers --since and --until too (it keeps each tweet's time).
        var unanswered = filters.filter
        if buckets != nil { (unanswered.since, unanswered.until, unanswered.timeNeededBy) = (nil, nil, nil) }
        if store != nil && (unanswered.isActive || !filters.columns.isStandard) {
            throw UsageError("--since, --until, --retweets, --lang and --columns are not yet answered from a store: "
                             + "report from the dumps")
        }
    }

    static let options = ["--help", "--term", "--format", "--min-count", "--top", "--jobs", "--max-record",
                          "--strict", "--quiet", "--progress", "--stats", "--store", "--wait",
                          "--mentions-from", "--id-column", "--text-column", "--author-column"] + FilterOptions.names

    /// Runs the report; returns the exit status.
    func run() -> Int32 {
        let started = DispatchTime.now()
        if let store { return reportFromStore(store, started: started) }
        let plan = InputPlan(paths: paths, splitSize: Terms.splitSize())
        let control = RunControl(strict: input.strict)
        let console = Console(quiet: quiet)
        guard console.warnAbout(plan, strict: input.strict) else { return 1 }
        let interrupts = InterruptHandler(control: control)
        let mode: ProgressDisplay.Mode = quiet ? .off
            : progress == .auto ? (isatty(2) == 1 ? .terminal : .off) : progress
        let total: Int64? = plan.units.contains { $0.size == nil } ? nil : plan.units.reduce(0) { $0 + ($1.size ?? 0) }
        let display = ProgressDisplay(control: control, total: total, units: plan.units.count, mode: mode)
        display.start()
        var run = ParallelRun(terms: terms, jobs: input.jobs, maxRecord: input.maxRecord,
                              extractor: input.extractor, csvColumns: input.csvColumns)
        if let b = InputOptions.batchBytes { run.batchBytes = b }
        run.filter = filters.filter
        run.facts = filters.columns.facts
        run.times = buckets != nil
        let aggregator = Aggregator(terms: terms, facts: filters.columns.facts, buckets: buckets)
        let ledger = run.run(plan.units, control: control, into: aggregator, ledger: ProblemLedger(plan: plan))
        display.finish()
        if let code = interrupts.exitStatus() { return code }
        interrupts.cancel()
        if input.strict, let p = control.stoppingProblem {
            console.warn(p.description)
            console.warn("stopped: --strict stops at the first bad input (leave it off to skip and count bad input)")
            return 1
        }
        let reports = aggregator.reports(minCount: minCount, top: top)
        let stdoutIsTerminal = isatty(1) == 1
        let format = self.format ?? (stdoutIsTerminal ? .table : .csv)
        let shown = buckets == nil ? reports
            : aggregator.seriesReports(minCount: minCount, top: top, since: filters.filter.since, until: filters.filter.until)
        let text = ReportWriter.render(shown, as: format, columns: filters.columns, bucketed: buckets != nil,
                                       width: Console.terminalWidth(), color: format == .table && Console.wantsColor(fd: 1))
        guard Console.writeStdout(text) else { return 0 }  // a closed pipe ends the run quietly

        console.reportProblems(ledger)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        var summary = RunSummary(ledger, reports: reports, duplicates: aggregator.duplicates, elapsed: elapsed)
        summary.filter = filters.filter
        // The summary is for people (stderr a terminal) and logs (--progress=plain).
        if !quiet && (mode == .terminal || mode == .plain || (progress == .auto && isatty(2) == 1)) {
            Console.writeStderr(summary.text)
        }
        if let statsPath { console.writeStats(summary, to: statsPath) }
        return ledger.nothingRead ? 1 : 0
    }
}

extension ReportCommand {
    /// `report --store --by`: the series, bucketed at query time (SPEC §12.4).
    func seriesFromStore(_ store: Store, _ path: String, _ buckets: TimeBuckets, started: DispatchTime) throws -> Int32 {
        let series = try store.series(terms, buckets: buckets, minCount: minCount, top: top,
                                      since: filters.filter.since, until: filters.filter.until)
        let format = self.format ?? (isatty(1) == 1 ? .table : .csv)
        let text = ReportWriter.render(series.reports, as: format, columns: .standard, bucketed: true, width: Console.terminalWidth())
        guard Console.writeStdout(text) else { return 0 }
        if !quiet {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            Console.writeStderr("smashtag: store \(path), \(try store.tweetCount) tweets (\(series.unknownTime) of unknown time left out "
                                + "by \(buckets.description)); matched "
                                + series.totals.map { "\($0.term): \($0.tweets)" }.joined(separator: ", ")
                                + String(format: "; %.2f s\n", elapsed))
        }
        return 0
    }

    /// `report --store`: the same report, from the store alone (SPEC §10).
    func reportFromStore(_ path: String, started: DispatchTime) -> Int32 {
        do {
            let store = try Store(path: path, access: .read, wait: wait)
            if let buckets { return try seriesFromStore(store, path, buckets, started: started) }
            let reports = try store.reports(terms, minCount: minCount, top: top)
            let format = self.format ?? (isatty(1) == 1 ? .table : .csv)
            guard Console.writeStdout(ReportWriter.render(reports, as: format, width: Console.terminalWidth())) else { return 0 }
            if !quiet {
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
                Console.writeStderr("smashtag: store \(path), \(try store.tweetCount) tweets; matched "
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
