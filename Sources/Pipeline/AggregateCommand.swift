import Foundation
import Stages

/// `smashtag aggregate`: reads extract lines (files or standard input, any
/// compression), dedups on (term, tweet id), counts, and writes the report
/// exactly as `smashtag report` would.
struct AggregateCommand: Command {
    static let usage = """
    smashtag aggregate — dedup and count extract lines into a report

    USAGE:
        smashtag aggregate [FILE...] [options]

    Reads the lines `smashtag extract` writes (files, any compression, or
    standard input), counts each tweet once per term (the first copy read
    wins), and writes the report as `smashtag report` does. Inputs extracted
    separately with the same terms may be concatenated in any order.

    It also reads counts made elsewhere (the Spark job in contrib/spark),
    added as they are, without dedup:

        H<TAB>smashtag-counts<TAB>1<TAB>TERM...     header (format version 1, the terms)
        N<TAB>TERM<TAB>TWEETS                       distinct tweets that matched TERM
        C<TAB>TERM<TAB>MENTION<TAB>COUNT            of those, how many carry MENTION

    Version 2 of both (`extract --columns` with display, originals,
    retweets or authors) carries what those columns need, as its header says
    after the version (carries=kind,author,spellings; for counts
    carries=retweets,authors,display): each tweet opens with
    T<TAB>TERM<TAB>ID<TAB>o|r<TAB>@author|-, each M line adds the tweet's
    spellings of its mention; counts add RETWEETS<TAB>AUTHORS to N lines and
    RETWEETS<TAB>AUTHORS<TAB>DISPLAY to C lines. Version 1 answers the
    default columns only. `extract --by` adds each tweet's creation time to
    its T line (carries=time, or carries=kind,author,spellings,time), which
    `aggregate --by` needs; counts per creation second read as
    H<TAB>smashtag-counts<TAB>2<TAB>carries=time<TAB>TERM..., with the second
    (since 1970 UTC) after the term on N and C lines; counts per bucket with
    those columns as carries=retweets,authors,display,time, each bucket's
    lines with one second in it (give aggregate the same --by and --tz).

    With --pairs it writes what `smashtag pairs` writes instead: pairs counted
    from the extracted tweets, or pair counts made elsewhere:

        H<TAB>smashtag-pairs<TAB>1<TAB>TERM...      header (format version 1, the terms)
        N<TAB>TERM<TAB>TWEETS                       distinct tweets that matched TERM
        C<TAB>TERM<TAB>MENTION<TAB>COUNT            of those, how many carry MENTION
        P<TAB>TERM<TAB>SOURCE<TAB>TARGET<TAB>WEIGHT of those, how many carry both

    With --posts it writes what `smashtag posts` writes (SPEC §15), from the
    lines of `smashtag extract --posts` (H<TAB>smashtag-posts<TAB>1, P lines
    for the matching tweets, S lines for what each copy says of a post), or
    posts counted elsewhere (N<TAB>TERM<TAB>TWEETS and
    C<TAB>TERM<TAB>POST<TAB>RETWEETS<TAB>QUOTES<TAB>REPLIES lines); --columns
    then names the posts' columns, and --format, -o, --min-count and --top
    are as for `smashtag posts`.

    OPTIONS:
        --format FORMAT     csv, json, ndjson, table, xlsx or html, as for
                            `smashtag report` (with --pairs: csv, json, ndjson,
                            table, gexf or xlsx) [default: table on a terminal,
                            csv otherwise; with -o, from FILE's name]
        -o, --output FILE   Write the report to FILE, as `smashtag report -o` does
        --min-count N       Leave out mentions counted (pairs weighing) fewer than N
                            times [default: 2]
        --top N             Keep the first N hashtags and N users of each term
                            (with --pairs: the N heaviest pairs) [default: all]
        --pairs             Pairs of mentions, as `smashtag pairs`
        --posts             The posts retweeted, quoted and replied to, as
                            `smashtag posts` (from `extract --posts` lines)
        --without-term      With --pairs: as `smashtag pairs --without-term`
        --max-pair-mentions N
                            With --pairs: a tweet carrying more than N distinct
                            mentions adds no pairs, as for `smashtag pairs`
                            [default: 200]
        --columns LIST      The report's columns, as for `smashtag report`
                            [default: term,type,mention,count]
        --kinds LIST        The kinds of mention reported, as for `smashtag
                            report`: give extract the same (others in the
                            lines are passed over) [default: hashtag,user]
        --by UNIT, --tz ZONE
                            A series over time, as for `smashtag report`;
                            the input must come from `extract --by`
        --since T, --until T
                            With --by only: the span of the series (times
                            outside it are left out); the filters themselves
                            belong to extract
        --trend             What `smashtag trend` writes (SPEC §14), from the
                            lines of `extract --trend`, with trend's --current,
                            --baseline, --now, --tz, --min-authors, --by-tweets,
                            --all and --top (see `smashtag trend --help`)
        --strict            Stop at the first bad line with exit status 1
        -q, --quiet         Nothing on stderr but bad input
    \(Usage.helpOption)

    """

    static let usageLine = "usage: smashtag aggregate [FILE...] [options]"

    /// Every option `aggregate` takes, built from the option groups' own names (for "did you mean").
    static let options = ["--help", "--min-count", "--top", "--strict", "--quiet", "--pairs", "--posts", "--without-term", "--max-pair-mentions",
                          "--columns", "--kinds", "--since", "--until", "--trend"] + ReportOutput.options + FilterOptions.seriesNames
        + TrendOptions.names


    var paths: [String] = []
    /// `--format` and `-o, --output FILE`, as for `report`.
    var output = ReportOutput()
    var minCount = 2
    var top: Int?
    var strict = false
    var quiet = false
    /// `--pairs`: what `smashtag pairs` writes (SPEC §12.5), with its formats and `--without-term`.
    var pairs = false
    /// With `--pairs`: `--format` and `-o` as `smashtag pairs` takes them.
    var pairOutput = PairOutput()
    var withoutTerm = false
    var maxMentions = OverLimitTweets.defaultLimit
    var maxMentionsGiven = false
    /// `--columns` (SPEC §12.3), `--by` and `--tz` (§12.4, with `--since`
    /// and `--until` for the series' span); the other filters belong to `extract`.
    var filters = FilterOptions()
    var buckets: TimeBuckets?
    /// `--trend` (SPEC §14): its options and windows.
    var trend = false
    var trendOptions = TrendOptions()
    var windows: TrendWindows?
    /// `--posts` (SPEC §15): what `smashtag posts` writes, from `extract --posts` lines, in the columns of `--columns`.
    var posts = false
    var postsOutput = PostsOutput()
    var postColumns = PostsColumn.standard

    init(arguments: [String]) throws(UsageError) {
        var a = ArgumentReader(arguments)
        var formatName: String?
        var window: [String] = []
        var trendOnly: [String] = []
        var minCountGiven = false
        var columns: String?
        while let option = try a.nextOption() {
            if option != "--tz", try trendOptions.parse(option, &a) {
                trendOnly.append(option)
                continue
            }
            // With --posts, --columns names posts columns: read once the options are known.
            if option == "--columns" { columns = try a.value(); continue }
            // With --pairs, --format names a pair format (gexf too): read once the options are known.
            if option == "--format" { formatName = try a.value(); continue }
            if option == "--columns" || option == "--kinds" || FilterOptions.seriesNames.contains(option), try filters.parse(option, &a) { continue }
            if option == "--since" || option == "--until", try filters.parse(option, &a) {
                window.append(option)
                continue
            }
            if try output.parse(option, &a) { continue }
            switch option {
            case "-h", "--help": throw UsageError.help(Self.usage)
            case "--min-count":
                minCount = try a.number(min: 1)
                minCountGiven = true
            case "--trend": trend = true
            case "--top": top = try a.number(min: 1)
            case "--strict": strict = true
            case "-q", "--quiet": quiet = true
            case "--pairs": pairs = true
            case "--posts": posts = true
            case "--without-term": withoutTerm = true
            case "--max-pair-mentions":
                maxMentions = try a.number(min: 2)
                maxMentionsGiven = true
            default:
                if FilterOptions.filterNames.contains(option) {
                    throw UsageError("\(option) is applied by extract, before matching: give it to smashtag extract")
                }
                throw UsageError.unknownOption(option, known: Self.options)
            }
        }
        if posts {
            if pairs { throw UsageError("--posts and --pairs are two answers: give one") }
            if trend { throw UsageError("--posts and --trend are two answers: give one") }
            if let option = trendOnly.first { throw UsageError("\(option) goes with --trend (SPEC §14)") }
            if withoutTerm || maxMentionsGiven || filters.by != nil || !window.isEmpty || filters.kinds != .standard {
                throw UsageError("--posts takes --format, -o, --columns, --min-count and --top (SPEC §15)")
            }
            if let columns { postColumns = try PostsCommand.columns(columns) }
            if let formatName {
                var reader = ArgumentReader(["--format", formatName])
                if let option = try reader.nextOption() { _ = try postsOutput.parse(option, &reader) }
            }
            postsOutput.path = output.path
            try postsOutput.check()
            paths = a.positional.isEmpty ? ["-"] : a.positional
            return
        }
        if let columns {
            var reader = ArgumentReader(["--columns", columns])
            if let option = try reader.nextOption() { _ = try filters.parse(option, &reader) }
        }
        if let formatName {
            if pairs {
                pairOutput.format = try PairOutput.format(formatName)
            } else {
                var reader = ArgumentReader(["--format", formatName])
                _ = try reader.nextOption()
                _ = try output.parse("--format", &reader)
            }
        }
        if withoutTerm && !pairs { throw UsageError("--without-term leaves out pairs: give it with --pairs") }
        if maxMentionsGiven && !pairs { throw UsageError("--max-pair-mentions bounds pairs: give it with --pairs") }
        if pairs && !filters.columns.isStandard { throw UsageError("--columns does not apply to pairs (SPEC §12.5)") }
        if pairs {
            pairOutput.path = output.path
            try pairOutput.check(terms: nil)
        } else {
            try output.check()
        }
        paths = a.positional.isEmpty ? ["-"] : a.positional
        if trend {
            if pairs { throw UsageError("--trend and --pairs are two reports: give one") }
            if filters.by != nil { throw UsageError("--by does not apply to trend: --current and --baseline name its windows (SPEC §14)") }
            if !filters.columns.isStandard { throw UsageError("--columns does not apply to trend: its columns are fixed (SPEC §14)") }
            if minCountGiven { throw UsageError("--min-count does not apply to trend: --min-authors N sets the authors a score needs (SPEC §14)") }
            if let option = window.first {
                throw UsageError("\(option) is applied by extract, before matching: give it to smashtag extract --trend")
            }
            trendOptions.zone = filters.zone
            filters.zone = nil
            windows = try trendOptions.windows()
            return
        }
        if let option = trendOnly.first { throw UsageError("\(option) goes with --trend (SPEC §14)") }
        buckets = try filters.timeBuckets()
        if pairs && buckets != nil { throw UsageError("--by does not apply to pairs (SPEC §12.5)") }
        if buckets == nil, let option = window.first {
            throw UsageError("\(option) is applied by extract, before matching: give it to smashtag extract "
                             + "(aggregate takes it only with --by, for the span of the series)")
        }
    }

    func run() -> Int32 {
        guard let setup = InputRun.start(paths: paths, strict: strict, quiet: quiet, splitSize: .max) else { return 1 }
        let (plan, control, console, interrupts) = (setup.plan, setup.control, setup.console, setup.interrupts)
        // The plan's problems first, then each input's in order, as a report's run keeps them.
        let ledger = setup.ledger()
        if posts { return runPosts(setup, ledger: ledger) }
        let sink: (([Term]) -> PartSink)? = windows.map { w in
            { [kinds = filters.kinds] terms in TrendAggregator(terms: terms, windows: w, kinds: kinds) }
        }
        let reader = ExtractReader(control: control, pairs: pairs, maxPairMentions: maxMentions,
                                   facts: trend ? TrendAggregator.fields(kinds: filters.kinds) : filters.facts, buckets: buckets,
                                   since: filters.filter.since, until: filters.filter.until, problems: ledger, sink: sink)
        let input = InputReader()
        // Extract lines are not tweets: the bound on records that cannot be
        // one (for a file of something else) would give up every input of
        // more than 100,000 lines. The bounds on bombs stay.
        input.policy.maxRecordsWithoutTweet = nil
        for unit in plan.units where !control.isStopped {
            input.read(unit, handler: reader)
            reader.finishTweet()
        }
        reader.finishReposts()
        if let code = setup.stopped() { return code }
        defer { interrupts.cancel() }
        if pairs { return writePairs(reader, ledger: ledger, console: console, interrupts: interrupts) }
        if trend { return writeTrend(reader, ledger: ledger, console: console, interrupts: interrupts) }
        guard let aggregator = reader.aggregator else {
            console.reportProblems(ledger)
            console.warn("no extract header found: aggregate reads the output of 'smashtag extract'")
            return 1
        }
        if reader.lacksFacts || reader.lacksTimes {
            console.reportProblems(ledger)
            return 1
        }
        let reports: [TermReport]
        do {
            reports = buckets == nil ? aggregator.reports(minCount: minCount, top: top)
                : try aggregator.seriesReports(minCount: minCount, top: top, since: filters.filter.since, until: filters.filter.until)
        } catch {
            console.warn(error.message)
            return 1
        }
        let summary: [ReportDocument.Item] = [
            .init("terms", .text(reports.map(\.term.description).joined(separator: ", "))),
            .init("extracts", .text(paths.joined(separator: ", "))),
            .init("options", .text("--min-count \(minCount)" + (top.map { " --top \($0)" } ?? ""))),
            .init("when", .time(Date())),
            .init("smashtag", .text(Usage.version)),
        ]
        let document = ReportDocument(reports: reports, summary: summary, columns: filters.columns, bucketed: buckets != nil)
        if let code = output.write(document, console: console, interrupts: interrupts) { return code }
        console.reportProblems(ledger)
        return 0
    }
}

extension AggregateCommand {
    /// `aggregate --trend`: the rows of what was read, as `smashtag trend` writes them.
    func writeTrend(_ reader: ExtractReader, ledger: ProblemLedger, console: Console, interrupts: InterruptHandler) -> Int32 {
        guard let aggregator = reader.sink as? TrendAggregator, let windows else {
            console.reportProblems(ledger)
            console.warn("no extract header found: aggregate --trend reads the output of 'smashtag extract --trend'")
            return 1
        }
        if reader.lacksTimes {
            console.reportProblems(ledger)
            return 1
        }
        let trends = aggregator.trends(minimum: trendOptions.minAuthors, byTweets: trendOptions.byTweets, all: trendOptions.all, top: top)
        let items = TrendCommand.summaryItems(terms: aggregator.terms, source: .text(paths.joined(separator: ", ")), sourceLabel: "extracts",
                                              windows: windows, options: "--min-authors \(trendOptions.minAuthors)")
        if let code = TrendCommand.write(trends, output: output, summary: items, console: console, interrupts: interrupts) { return code }
        console.reportProblems(ledger)
        if !quiet {
            for line in trendOptions.lines(windows, oldest: aggregator.oldest, newest: aggregator.newest) { console.warn(line) }
        }
        return 0
    }

    /// `aggregate --posts`: the posts of `extract --posts` lines, as `smashtag posts` writes them.
    func runPosts(_ setup: InputRun, ledger: ProblemLedger) -> Int32 {
        let reader = PostsLineReader(control: setup.control, texts: postColumns.contains(.text), problems: ledger)
        let input = InputReader()
        input.policy.maxRecordsWithoutTweet = nil
        for unit in setup.plan.units where !setup.control.isStopped { input.read(unit, handler: reader) }
        reader.finishReposts()
        if let code = setup.stopped() { return code }
        defer { setup.interrupts.cancel() }
        guard let aggregator = reader.aggregator else {
            setup.console.reportProblems(ledger)
            setup.console.warn("no posts header found: aggregate --posts reads the output of 'smashtag extract --posts'")
            return 1
        }
        if reader.lacksTexts {
            setup.console.reportProblems(ledger)
            return 1
        }
        let result = aggregator.posts(minCount: minCount, top: top)
        if let status = postsOutput.write(result, columns: postColumns, console: setup.console, interrupts: setup.interrupts) {
            return status
        }
        setup.console.reportProblems(ledger)
        return 0
    }

    /// `aggregate --pairs`: the pairs of what was read, as `smashtag pairs` writes them.
    func writePairs(_ reader: ExtractReader, ledger: ProblemLedger, console: Console, interrupts: InterruptHandler) -> Int32 {
        guard let aggregator = reader.pairAggregator else {
            console.warn("no extract header found: aggregate --pairs reads the output of 'smashtag extract' (or smashtag-pairs lines)")
            return 1
        }
        do {
            try pairOutput.check(terms: aggregator.terms)
        } catch {
            return usageFailure(error, usageLine: "usage: smashtag aggregate --pairs [FILE...] [options]")
        }
        let result = aggregator.pairs(minCount: minCount, top: top, withoutTerm: withoutTerm)
        if let status = pairOutput.write(result, console: console, interrupts: interrupts) { return status }
        console.reportProblems(ledger)
        PairsCommand.warn(reader.overLimit, quiet: quiet)
        return 0
    }
}
