import Foundation
import Stages

/// `smashtag pairs` (SPEC §12.5): which mentions go together among the
/// tweets matching each term. Reads as `report` does (the same run, terms,
/// inputs, dedup and store), counting pairs instead of mentions.
struct PairsCommand: Command {
    static let usage = """
    smashtag pairs — which mentions go together among the matching tweets

    USAGE:
        smashtag pairs TERM [PATH...] [options]
        smashtag pairs -t TERM [-t TERM...] [PATH...] [options]
        smashtag pairs TERM... --store FILE [options]
        smashtag extract ... | smashtag aggregate --pairs [options]

    Among the distinct tweets matching each term, counts the unordered pairs
    of distinct mentions (hashtags and users, or the kinds of --kinds) one tweet carries: a pair's
    weight is the number of those tweets carrying both. #x and @x are two
    mentions; a tweet writing #Foo and #foo carries one (no pair). Terms,
    inputs, dedup (the first copy of a tweet counts) and --store are as for
    `smashtag report` (see `smashtag report --help`).

    OUTPUT:
        --format FORMAT     csv: term,source,target,weight (source before target
                            in UTF-8 bytes, so # before @); json, ndjson: per
                            term {"term","tweets","pairs":[{"source","target",
                            "weight"}]}; gexf: GEXF 1.3 for Gephi, one
                            undirected graph (one term only): nodes are the
                            mentions with type and count (the report's count),
                            edges carry the weight; table: per term, pairs
                            aligned for people; xlsx: a workbook, a sheet of
                            pairs per term (needs -o)
                            [default: table on a terminal, csv otherwise; with
                            -o, from FILE's name: .gexf, .xlsx, .json, ...]
        -o, --output FILE   Write the pairs to FILE (whole or not at all: a
                            temporary file renamed into place), not stdout
        --min-count N       Leave out pairs of weight under N [default: 2]
        --top N             Keep the N heaviest pairs of each term [default: all]
        --kinds LIST        The kinds of mention paired, as for `smashtag report`
                            (hashtag, user, symbol, url, host, domain, poster);
                            mentions of every kind sort by their printed bytes
                            [default: hashtag,user]
        --without-term      Leave out pairs holding the term's own mention (#tag
                            and @name terms; from:, word and * have none)
        --max-pair-mentions N
                            A tweet carrying more than N distinct mentions adds
                            no pairs (n mentions make n(n-1)/2 pairs); such
                            tweets still count as matching, and are counted
                            and the first few named on stderr [default: 200]
        Pairs are ordered by weight, heaviest first, then source, then target.

    FILTERS (as for `smashtag report`, before matching and dedup):
    \(Usage.filterOptions)

    INPUT AND RUNNING (as for `smashtag report`):
        --store FILE, --wait SECONDS, -j/--jobs N, --strict, --max-record BYTES,
        --no-input-limits, --deleted WHAT, --mentions-from SOURCE, --id-column,
        --text-column, --author-column NAME, --progress[=MODE], --stats FILE,
        -q/--quiet, -h/--help

    MEMORY: each worker keeps a table of the pairs it has seen (about 20 bytes a
    pair and term), folded into one at the end; dedup keeps a set of tweet ids
    per term, as a report does.

    EXAMPLES:
        smashtag pairs '#stanford' dumps/ --top 20
        smashtag pairs '#stanford' dumps/ --without-term -o g.gexf
        smashtag pairs '#stanford' '#mit' dumps/ -o pairs.xlsx
        smashtag pairs -t '#stanford' -t @nasa --store tweets.db --format json

    """


    var terms: [Term] = []
    var paths: [String] = []
    /// `--format` and `-o`.
    var output = PairOutput()
    var minCount = 2
    /// `--max-pair-mentions` (SPEC §12.5).
    var maxMentions = OverLimitTweets.defaultLimit
    var top: Int?
    var withoutTerm = false
    /// How the inputs are read (`--jobs`, `--strict`, `--max-record`, `--mentions-from`, CSV columns).
    var input = InputOptions()
    /// SPEC §12.2's filters (`--since`, `--until`, `--retweets`, `--lang`), which pairs take as report does.
    var filters = FilterOptions()
    var quiet = false
    var progress = ProgressDisplay.Mode.auto
    var statsPath: String?
    var store: String?
    var wait = 5.0

    static let usageLine = "usage: smashtag pairs TERM [PATH...] [options]"

    /// Every option `pairs` takes, built from the option groups' own names (for "did you mean").
    static let options = ["--help", "--term", "--min-count", "--top", "--kinds", "--without-term", "--max-pair-mentions", "--progress", "--stats"]
        + ReportOutput.options + StoreOptions.names + InputOptions.names + FilterOptions.filterNames

    /// Parses the arguments after `pairs`.
    ///
    /// - Throws: `UsageError` for anything that is not a valid invocation.
    init(arguments: [String]) throws(UsageError) {
        var a = ArgumentReader(arguments)
        var termFlags: [String] = []
        while let name = try a.nextOption() {
            if try input.parse(name, &a) { continue }
            if !FilterOptions.seriesNames.contains(name), try filters.parse(name, &a, columns: false) { continue }
            switch name {
            case "-h", "--help": throw UsageError.help(Self.usage)
            case "-t", "--term": termFlags.append(try a.value())
            case "--format", "-o", "--output": _ = try output.parse(name, &a)
            case "--min-count": minCount = try a.number(min: 1)
            case "--max-pair-mentions": maxMentions = try a.number(min: 2)
            case "--top": top = try a.number(min: 1)
            case "--without-term": withoutTerm = true
            case "-q", "--quiet": quiet = true
            case "--progress": progress = try ProgressDisplay.Mode.parse(&a)
            case "--stats": statsPath = try a.value()
            case "--store": store = try a.value()
            case "--wait": wait = try StoreOptions.seconds(try a.value())
            case "--by", "--tz", "--columns":
                throw UsageError("\(name) does not apply to pairs: a pair has one weight over the whole input "
                                 + "(SPEC §12.5); use `smashtag report \(name) ...` for mentions")
            default:
                throw UsageError.unknownOption(name, known: Self.options)
            }
        }
        (terms, paths, _) = try Terms.parse(flags: termFlags, positional: a.positional, store: &store, command: "pairs",
                                            reads: "reads pairs from the store alone", then: "ask without paths")
        // A GEXF document holds one graph: one term (a choice, written in the README).
        try output.check(terms: terms)
    }

    /// Says on stderr (unless `quiet`) which matching tweets added no pairs
    /// for carrying more than `--max-pair-mentions` distinct mentions.
    static func warn(_ overLimit: OverLimitTweets, quiet: Bool) {
        guard !quiet else { return }
        for line in RunSummary.lines(overLimit) { Console.writeStderr("smashtag: " + line + "\n") }
    }

    /// Runs the count; returns the exit status.
    func run() -> Int32 {
        let started = DispatchTime.now()
        if let store { return pairsFromStore(store, started: started) }
        var run = input.parallelRun(terms)
        run.filter = filters.filter
        run.facts.mentionKinds = filters.kinds
        run.pairLimit = maxMentions
        let aggregator = PairAggregator(terms: terms, maxMentions: maxMentions)
        let scan: DumpScan
        switch DumpScan.run(run, input: input, paths: paths, quiet: quiet, progress: progress, into: aggregator) {
        case .exit(let code): return code
        case .scanned(let s): scan = s
        }
        let pairs = aggregator.pairs(minCount: minCount, top: top, withoutTerm: withoutTerm)
        if let status = output.write(pairs, console: scan.console, interrupts: scan.interrupts) { return status }
        Self.warn(scan.ledger.overLimit, quiet: quiet)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        var summary = RunSummary(scan.ledger, reports: [], duplicates: aggregator.duplicates, elapsed: elapsed)
        summary.overLimit = scan.ledger.overLimit
        summary.filter = filters.filter
        summary.matched = pairs.map { ($0.term.description, $0.tweets) }
        return scan.finish(summary, quiet: quiet, progress: progress, statsPath: statsPath)
    }

    /// `pairs --store`: the same pairs, from the store alone.
    func pairsFromStore(_ path: String, started: DispatchTime) -> Int32 {
        do {
            let store = try Store(path: path, access: .read, wait: wait)
            let (pairs, overLimit) = try store.pairs(terms, minCount: minCount, top: top, withoutTerm: withoutTerm,
                                                     filter: filters.filter, kinds: filters.kinds, maxMentions: maxMentions)
            let console = Console(quiet: quiet)
            if let status = output.write(pairs, console: console, interrupts: nil) { return status }
            Self.warn(overLimit, quiet: quiet)
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
