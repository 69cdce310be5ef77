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
    /// `--since`, `--until`, `--retweets`, `--lang` and `--columns` (SPEC §12.2, §12.3).
    var filters = FilterOptions()
    var quiet = false
    var progress = ProgressDisplay.Mode.auto
    var statsPath: String?
    /// `--store FILE` (or `SMASHTAG_STORE` when no path is given): report from the store.
    var store: String?
    var wait = 5.0
    /// The store came from `SMASHTAG_STORE`, not from `--store`.
    var storeFromEnvironment = false
    /// `--by` and `--tz` (SPEC §12.4): a series instead of one report per term.
    var buckets: TimeBuckets?

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
            if try filters.parse(name, &a) { continue }
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
        (terms, paths, storeFromEnvironment) = try Terms.parse(flags: termFlags, positional: a.positional, store: &store,
                                                               command: "report", reads: "reports from the store alone",
                                                               then: "report without paths")
        buckets = try filters.timeBuckets()
    }

    static let options = ["--help", "--term", "--format", "--output", "--min-count", "--top", "--jobs", "--max-record",
                          "--strict", "--quiet", "--progress", "--stats", "--store", "--wait",
                          "--mentions-from", "--id-column", "--text-column", "--author-column"] + FilterOptions.names

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
        var run = input.parallelRun(terms)
        run.filter = filters.filter
        run.facts = filters.columns.facts
        run.times = buckets != nil
        let aggregator = Aggregator(terms: terms, facts: filters.columns.facts, buckets: buckets)
        let scan: DumpScan
        switch DumpScan.run(run, input: input, paths: paths, quiet: quiet, progress: progress, into: aggregator) {
        case .exit(let code): return code
        case .scanned(let s): scan = s
        }
        let reports = aggregator.reports(minCount: minCount, top: top)
        let shown = buckets == nil ? reports
            : aggregator.seriesReports(minCount: minCount, top: top, since: filters.filter.since, until: filters.filter.until)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        var summary = RunSummary(scan.ledger, reports: reports, duplicates: aggregator.duplicates, elapsed: elapsed)
        summary.filter = filters.filter
        let document = ReportDocument(reports: shown, summary: summaryItems(summary), columns: filters.columns,
                                      bucketed: buckets != nil)
        if let code = output.write(document, console: scan.console, interrupts: scan.interrupts) { return code }
        return scan.finish(summary, quiet: quiet, progress: progress, statsPath: statsPath)
    }
}

extension ReportCommand {
    /// `report --store --by`: the series, bucketed at query time, with the
    /// filters and the columns (SPEC §12.2 to §12.4).
    func seriesFromStore(_ store: Store, _ path: String, _ buckets: TimeBuckets, started: DispatchTime) throws -> Int32 {
        let series = try store.series(terms, buckets: buckets, minCount: minCount, top: top, filter: filters.filter,
                                      columns: filters.columns)
        let interrupts = InterruptHandler(control: RunControl(strict: false))
        defer { interrupts.cancel() }
        let document = ReportDocument(reports: series.reports, summary: storeSummaryItems(path, tweets: try store.tweetCount),
                                      columns: filters.columns, bucketed: true)
        if let code = output.write(document, console: Console(quiet: quiet), interrupts: interrupts) { return code }
        warnOfUnknownFacts(series.unknownFacts)
        if !quiet {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            Console.writeStderr("smashtag: store \(path), \(try store.tweetCount) tweets (\(series.unknownTime) of unknown time left out "
                                + "by \(buckets.description)); matched "
                                + series.totals.map { "\($0.term): \($0.tweets)" }.joined(separator: ", ")
                                + String(format: "; %.2f s\n", elapsed))
        }
        return 0
    }

    /// Says how many of the matching tweets were ingested before schema
    /// version 4, when the report's filters or columns would need what they
    /// lack; even with --quiet: it changes what the numbers mean.
    func warnOfUnknownFacts(_ count: Int) {
        let filter = filters.filter
        guard count > 0, filter.retweets != .include || filter.languages != nil || filters.columns.facts.any else { return }
        Console.writeStderr("smashtag: \(count) of the matching tweets were ingested before schema version 4, "
                            + "which kept no kind, language or spellings: they have no language, --retweets exclude|only "
                            + "leaves them out, and they add to count and authors but not to originals, retweets or "
                            + "display (ingest their dumps into a new store to have them)\n")
    }

    /// `report --store`: the same report, from the store alone (SPEC §10).
    func reportFromStore(_ path: String, started: DispatchTime) -> Int32 {
        do {
            let store = try Store(path: path, access: .read, wait: wait)
            if let buckets { return try seriesFromStore(store, path, buckets, started: started) }
            let filter = filters.filter, columns = filters.columns
            var filtered: Store.FilteredReports?
            let reports: [TermReport]
            if filter.isActive || !columns.isStandard {
                // SPEC §12's options: one pass over the stored tweets with their kind, language and spellings.
                filtered = try store.reports(terms, minCount: minCount, top: top, filter: filter, columns: columns)
                reports = filtered!.reports
            } else {
                reports = try store.reports(terms, minCount: minCount, top: top)
            }
            let interrupts = InterruptHandler(control: RunControl(strict: false))
            defer { interrupts.cancel() }
            let document = ReportDocument(reports: reports, summary: storeSummaryItems(path, tweets: try store.tweetCount),
                                          columns: columns)
            if let code = output.write(document, console: Console(quiet: quiet), interrupts: interrupts) { return code }
            if let f = filtered { warnOfUnknownFacts(f.unknownFacts) }
            if !quiet {
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
                var line = "smashtag: store \(VisibleText.escaped(path)), \(try store.tweetCount) tweets; matched "
                    + reports.map { "\($0.term): \($0.tweets)" }.joined(separator: ", ")
                if let f = filtered, filter.isActive {
                    line += "; left out \(f.leftOut) by \(filter.description)"
                    if filter.byTime { line += " (\(f.unknownTime) of unknown time)" }
                }
                Console.writeStderr(line + String(format: "; %.2f s\n", elapsed))
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
