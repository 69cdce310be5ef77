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
    /// How the inputs are read (`--jobs`, `--strict`, `--max-record`, `--mentions-from`, CSV columns).
    var input = InputOptions()
    var quiet = false
    var progress = ProgressDisplay.Mode.auto
    var statsPath: String?
    /// `--store FILE` (or `SMASHTAG_STORE` when no path is given): report from the store.
    var store: String?
    var wait = 5.0
    /// The store came from `SMASHTAG_STORE`, not from `--store`.
    var storeFromEnvironment = false

    /// Parses the arguments after `report`.
    ///
    /// - Throws: `UsageError` for anything that is not a valid invocation.
    init(arguments: [String]) throws(UsageError) {
        var a = ArgumentReader(arguments)
        var termFlags: [String] = []
        while let name = try a.nextOption() {
            func value() throws(UsageError) -> String { try a.value() }
            if try input.parse(name, &a) { continue }
            if try output.parse(name, &a) { continue }
            switch name {
            case "-h", "--help": throw UsageError.help(Usage.report)
            case "-t", "--term": termFlags.append(try value())
            case "--min-count": minCount = try a.number(min: 1)
            case "--top": top = try a.number(min: 1)
            case "-q", "--quiet": quiet = true
            case "--progress":
                let v = a.optionalValue(among: ["terminal", "plain", "off"]) ?? "terminal"
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
            storeFromEnvironment = true
        }
        paths = positional.isEmpty ? ["-"] : positional
    }

    static let options = ["--help", "--term", "--format", "--output", "--min-count", "--top", "--jobs", "--max-record",
                          "--strict", "--quiet", "--progress", "--stats", "--store", "--wait",
                          "--mentions-from", "--id-column", "--text-column", "--author-column"]

    /// Runs the report; returns the exit status.
    func run() -> Int32 {
        let started = DispatchTime.now()
        if let store {
            // A pipe into a run that answers from the store is not read: say so.
            var st = stat()
            if storeFromEnvironment, fstat(0, &st) == 0, (st.st_mode & S_IFMT) == S_IFIFO || (st.st_mode & S_IFMT) == S_IFSOCK {
                Console.writeStderr("smashtag: answering from the store \(store) (\(StoreOptions.environment)); standard input is not read: "
                                    + "give - as a path to report on it instead\n")
            }
            return reportFromStore(store, started: started)
        }
        let plan = InputPlan(paths: paths, splitSize: Terms.splitSize())
        let control = RunControl(strict: input.strict)
        let console = Console(quiet: quiet)
        guard console.warnAbout(plan, strict: input.strict) else { return 1 }
        console.noteStandardInput(paths)
        let interrupts = InterruptHandler(control: control)
        let mode: ProgressDisplay.Mode = quiet ? .off
            : progress == .auto ? (isatty(2) == 1 ? .terminal : .off) : progress
        let total: Int64? = plan.units.contains { $0.size == nil } ? nil : plan.units.reduce(0) { $0 + ($1.size ?? 0) }
        let display = ProgressDisplay(control: control, total: total, units: plan.units.count, mode: mode)
        display.start()
        var run = ParallelRun(terms: terms, jobs: input.jobs, maxRecord: input.maxRecord,
                              extractor: input.extractor, csvColumns: input.csvColumns)
        run.policy = input.policy
        if let b = InputOptions.batchBytes { run.batchBytes = b }
        let aggregator = Aggregator(terms: terms)
        let ledger = run.run(plan.units, control: control, into: aggregator, ledger: ProblemLedger(plan: plan))
        display.finish()
        if let code = interrupts.exitStatus() { return code }
        if input.strict, let p = control.stoppingProblem {
            console.warn(p.description)
            console.warn("stopped: --strict stops at the first bad input (leave it off to skip and count bad input)")
            return 1
        }
        let reports = aggregator.reports(minCount: minCount, top: top)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let summary = RunSummary(ledger, reports: reports, duplicates: aggregator.duplicates, elapsed: elapsed)
        let document = ReportDocument(reports: reports, summary: summaryItems(summary))
        if let code = output.write(document, console: console, interrupts: interrupts) { return code }
        console.reportProblems(ledger)
        console.hintWithoutEntities(ledger, mentionsFrom: input.mentionsFrom)
        // The summary is for people (stderr a terminal) and logs (--progress=plain).
        if !quiet && (mode == .terminal || mode == .plain || (progress == .auto && isatty(2) == 1)) {
            Console.writeStderr(summary.text)
        }
        if let statsPath, !writeStats(summary.json, to: statsPath, console: console, interrupts: interrupts) { return 1 }
        interrupts.cancel()
        return ledger.nothingRead ? 1 : 0
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
        if store == nil { parts.append("--mentions-from \(input.mentionsFrom.rawValue)") }
        if input.strict { parts.append("--strict") }
        return parts.joined(separator: " ")
    }
}
