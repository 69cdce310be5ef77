import Foundation
import Stages

/// `smashtag trend` (SPEC §14): which mentions are rising among the tweets
/// matching each term, scored as Mastodon scores trending tags. Reads as
/// `report` does (the same run, terms, inputs, dedup and store), counting
/// per window instead of over the whole input.
struct TrendCommand: Command {
    static let usage = """
    smashtag trend — what is rising among the matching tweets

    USAGE:
        smashtag trend TERM [PATH...] --current WINDOW [options]
        smashtag trend -t TERM [-t TERM...] [PATH...] --current WINDOW [options]
        smashtag trend TERM... --store FILE --current WINDOW [options]
        smashtag extract TERM... --trend ... | smashtag aggregate --trend --current WINDOW [options]

    Compares, per term, each mention's distinct authors in a current window
    with a baseline, as Mastodon scores trending tags: with o authors now and
    b in the baseline, e = b (1 when b < 1) and score = (o - e)^2 / e, or 0
    when o < e or o < N (--min-authors). Terms, inputs, dedup (the first copy
    of a tweet counts) and --store are as for `smashtag report`.

    WINDOWS (half-open, [A, B)):
        --current WINDOW    Nh, Nd or Nw: the last N whole hours, days or ISO
                            weeks that end at the start of the present hour,
                            day or week in --tz (a day is a calendar day: 23 or
                            25 hours across a clock change; 1w ends on a
                            Monday); or A..B, bounds as --since/--until take
                            them (2020-03-01 is 00:00 UTC). Required
        --baseline WHICH    previous: the window of the same length just before;
                            weekago: the current window 7 calendar days back;
                            mean:K: the mean of the K windows of the same length
                            before (b may be a fraction); A..B: any window, its
                            counts scaled by the ratio of the lengths
                            [default: previous]
        --now T             The present, for Nh/Nd/Nw [default: the clock]
        --tz ZONE           The zone of days, weeks and A..B's local days: an
                            IANA name (Europe/Berlin) [default: UTC]

    SCORE AND ROWS:
        --min-authors N     N: a score needs o ≥ N [default: 5]
        --by-tweets         o and b count distinct tweets, not authors
        --all               Every mention carried in either window, not only
                            those scoring above 0
        --top N             Keep the first N rows of each type [default: all]
        --kinds LIST        The kinds of mention scored, as for `smashtag report`
                            [default: hashtag,user]
        Rows: term,type,mention,display,current_tweets,current_authors,
        baseline_tweets,baseline_authors,expected,score,ratio,status,
        top_author_share,top_authors,example_ids. status is new (b = 0,
        o ≥ N), rising (score > 0), falling (o < b) or steady; ratio is
        (o + 1) / (b + 1); top_author_share is the share of the current
        window's tweets carrying the mention that its most active author
        wrote; top_authors the three most active (space-separated);
        example_ids the three earliest tweets. display and the last three
        are over the current window. Numbers are exact, rounded half to even
        to 4 decimals (24.5, 0.1667). Order: type, score, current_authors
        (both highest first), then mention.

    OUTPUT:
        --format FORMAT     csv, json (per term {"term","current":[A,B],
                            "baseline":[C,D],"rows":[...]}), ndjson, table,
                            xlsx (a sheet per term and a chart of the top
                            rising; needs -o) or html [default: with -o, from
                            FILE's name; else table on a terminal, csv otherwise]
        -o, --output FILE   Write to FILE (whole or not at all), not stdout

    FILTERS (as for `smashtag report`, before matching and dedup):
    \(Usage.filterOptions)
        Here --retweets defaults to exclude (Mastodon counts no boosts); tweets
        of unknown time are left out and counted.

    INPUT AND RUNNING (as for `smashtag report`):
        --store FILE, --wait SECONDS, -j/--jobs N, --strict, --max-record BYTES,
        --no-input-limits, --deleted WHAT, --mentions-from SOURCE, --id-column,
        --text-column, --author-column NAME, --progress[=MODE], --stats FILE,
        -q/--quiet, -h/--help

    The summary on stderr names both windows, and says when the current window
    ends after the newest matching tweet read (partial) or the baseline starts
    before the oldest; with --store, which reads only the posts of the windows'
    span, after the newest or before the oldest post in the store. With --store,
    the span is read on one connection per core (up to 4) when the store holds
    about 100,000 posts or more; -j/--jobs N reads it on N (at most 16).
    --min-count, --columns and --by do not apply (usage error).

    MEMORY: per term and window, a count per mention and 8 bytes per (tweet,
    mention) of a tweet with an author; dedup keeps the ids of the matching
    tweets per term.

    EXAMPLES:
        smashtag trend '*' dumps/ --current 1d --baseline weekago
        smashtag trend '#swift' dumps/ --current 7d --tz Europe/Berlin --top 10
        smashtag trend '*' --store tweets.db --current 6h --baseline mean:4 -o rising.html
        smashtag trend '*' dumps/ --current 2020-03-01..2020-03-08 --baseline 2020-01-01..2020-03-01

    """

    static let usageLine = "usage: smashtag trend TERM [PATH...] --current WINDOW [options]"

    var terms: [Term] = []
    var paths: [String] = []
    var output = ReportOutput()
    var top: Int?
    var trend = TrendOptions()
    var windows: TrendWindows
    var input = InputOptions()
    var filters = FilterOptions()
    var quiet = false
    var progress = ProgressDisplay.Mode.auto
    var statsPath: String?
    var store: String?
    var wait = 5.0

    /// Every option `trend` takes (for "did you mean").
    static let options = ["--help", "--term", "--top", "--progress", "--stats"] + TrendOptions.names + ReportOutput.options
        + StoreOptions.names + InputOptions.names + FilterOptions.filterNames + ["--kinds"]

    init(arguments: [String]) throws(UsageError) {
        var a = ArgumentReader(arguments)
        var termFlags: [String] = []
        while let name = try a.nextOption() {
            if try trend.parse(name, &a) { continue }
            if try input.parse(name, &a) { continue }
            if try output.parse(name, &a) { continue }
            if !FilterOptions.seriesNames.contains(name), try filters.parse(name, &a, columns: false) { continue }
            switch name {
            case "-h", "--help": throw UsageError.help(Self.usage)
            case "-t", "--term": termFlags.append(try a.value())
            case "--top": top = try a.number(min: 1)
            case "-q", "--quiet": quiet = true
            case "--progress": progress = try ProgressDisplay.Mode.parse(&a)
            case "--stats": statsPath = try a.value()
            case "--store": store = try a.value()
            case "--wait": wait = try StoreOptions.seconds(try a.value())
            case "--min-count":
                throw UsageError("--min-count does not apply to trend: --min-authors N sets the authors a score needs (SPEC §14)")
            case "--columns":
                throw UsageError("--columns does not apply to trend: its columns are fixed (SPEC §14)")
            case "--by":
                throw UsageError("--by does not apply to trend: --current and --baseline name its windows (SPEC §14)")
            default:
                throw UsageError.unknownOption(name, known: Self.options)
            }
        }
        try output.check()
        (terms, paths, _) = try Terms.parse(flags: termFlags, positional: a.positional, store: &store, command: "trend",
                                            reads: "reads the trend from the store alone", then: "ask without paths")
        windows = try trend.windows()
        if !filters.retweetsGiven { filters.filter.retweets = .exclude }
        filters.filter.timeNeededBy = "--current \(windows.currentText)"
    }

    func run() -> Int32 {
        let started = DispatchTime.now()
        let aggregator = TrendAggregator(terms: terms, windows: windows, kinds: filters.kinds)
        if let store { return fromStore(store, aggregator, started: started) }
        var run = input.parallelRun(terms)
        run.filter = filters.filter
        run.facts = TrendAggregator.fields(kinds: filters.kinds)
        // Spellings make `display`, over the current window's tweets alone: the scan reads no others'.
        let current = windows.current
        if current.start < current.end { run.facts.spellingsWithin = current.start..<current.end }
        run.times = true
        let scan: DumpScan
        switch DumpScan.run(run, input: input, paths: paths, quiet: quiet, progress: progress, into: aggregator) {
        case .exit(let code): return code
        case .scanned(let s): scan = s
        }
        let trends = aggregator.trends(minimum: trend.minAuthors, byTweets: trend.byTweets, all: trend.all, top: top)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        var summary = RunSummary(scan.ledger, reports: [], duplicates: aggregator.duplicates, elapsed: elapsed)
        summary.filter = filters.filter
        summary.matched = terms.indices.map { (terms[$0].description, aggregator.counted(term: $0)) }
        let items = Self.summaryItems(terms: terms, source: .text(paths.prefix(10).joined(separator: ", ")), sourceLabel: "inputs",
                                      windows: windows, options: optionsText)
        if let code = Self.write(trends, output: output, summary: items, console: scan.console, interrupts: scan.interrupts) {
            return code
        }
        if !quiet { for line in trend.lines(windows, oldest: aggregator.oldest, newest: aggregator.newest) { scan.console.warn(line) } }
        ProcessEnd.keep((aggregator, trends))
        return scan.finish(summary, quiet: quiet, progress: progress, statsPath: statsPath)
    }

    /// `trend --store`: the same rows, from the store alone.
    func fromStore(_ path: String, _ aggregator: TrendAggregator, started: DispatchTime) -> Int32 {
        do {
            let store = try Store(path: path, access: .read, wait: wait)
            if input.jobsGiven { store.spanReaders = input.jobs }
            let scanned = try store.scan(terms, filter: filters.filter, into: aggregator)
            let trends = aggregator.trends(minimum: trend.minAuthors, byTweets: trend.byTweets, all: trend.all, top: top)
            let console = Console(quiet: quiet)
            let interrupts = InterruptHandler(control: RunControl(strict: false))
            defer { interrupts.cancel() }
            let items = Self.summaryItems(terms: terms, source: .text(path), sourceLabel: "store", windows: windows, options: optionsText)
            if let code = Self.write(trends, output: output, summary: items, console: console, interrupts: interrupts) { return code }
            if !quiet {
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
                Console.writeStderr("smashtag: store \(VisibleText.escaped(path)), \(scanned.tweets) posts read of the windows' span; in the current window "
                                    + trends.map { "\($0.term): \($0.currentTweets)" }.joined(separator: ", ")
                                    + "; left out \(scanned.leftOut) by \(filters.filter.description) (\(scanned.unknownTime) of unknown time)"
                                    + String(format: "; %.2f s\n", elapsed))
                // The store reads its windows' span alone: what lies before or after is told by the store's own ends.
                let times = try store.postTimes()
                for line in trend.lines(windows, oldest: times?.oldest, newest: times?.newest, of: .store) {
                    console.warn(line)
                }
            }
            return 0
        } catch let error as StoreError {
            return storeFailure(error)
        } catch {
            return usageFailure(UsageError("\(error)"), usageLine: "usage: smashtag trend TERM... --store FILE --current WINDOW [options]")
        }
    }

    /// `--min-authors 5 --top 20 --retweets exclude`: what decides the rows.
    private var optionsText: String {
        var parts = ["--current \(windows.currentText)", "--baseline \(windows.baselineText)", "--tz \(trend.zoneName)",
                     "--min-authors \(trend.minAuthors)"]
        if trend.byTweets { parts.append("--by-tweets") }
        if trend.all { parts.append("--all") }
        if let top { parts.append("--top \(top)") }
        return parts.joined(separator: " ")
    }

    /// What the workbook's and the page's summary say of the run.
    static func summaryItems(terms: [Term], source: ReportDocument.Item.Value, sourceLabel: String, windows: TrendWindows,
                             options: String) -> [ReportDocument.Item] {
        [
            .init("terms", .text(terms.map(\.description).joined(separator: ", "))),
            .init(sourceLabel, source),
            .init("current window", .text(windows.current.description)),
            .init("baseline", .text(windows.baselineSpan.description + " (\(windows.baselineText))")),
            .init("options", .text(options)),
            .init("when", .time(Date())),
            .init("smashtag", .text(Usage.version)),
        ]
    }

    /// Writes the rows as `output` says; nil when done, else the exit status.
    static func write(_ trends: [TermTrend], output: ReportOutput, summary: [ReportDocument.Item], console: Console,
                      interrupts: InterruptHandler?) -> Int32? {
        let format = output.resolved
        return ReportOutput.deliver(to: output.path, binary: format.isBinary, console: console, interrupts: interrupts) {
            try TrendWriter.bytes(trends, as: format, summary: summary, width: Console.terminalWidth(),
                                  color: format.isTable && output.path == nil && Console.wantsColor(fd: 1))
        }
    }
}
