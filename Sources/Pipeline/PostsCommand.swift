import Foundation
import Stages

/// `smashtag posts` (SPEC §15): the posts the matching tweets retweet,
/// quote and reply to, counted in the data. Reads as `report` does (the
/// same run, terms, inputs, filters, dedup and store).
struct PostsCommand: Command {
    static let usage = """
    smashtag posts — the posts the matching tweets retweet, quote and reply to

    USAGE:
        smashtag posts TERM [PATH...] [options]
        smashtag posts -t TERM [-t TERM...] [PATH...] [options]
        smashtag posts TERM... --store FILE [options]
        smashtag extract --posts ... | smashtag aggregate --posts [options]

    For each term, ranks the posts X that its distinct matching tweets
    retweet, quote and reply to, by what is in the data (never the platform's
    retweet_count): retweets, quotes and replies are the numbers of distinct
    matching tweets that retweet, quote or reply to X. X need not match, nor
    be in the data (a retweet names it). A retweet counts only as a retweet.
    Terms, inputs, dedup (the first copy of a tweet counts) and --store are
    as for `smashtag report` (see `smashtag report --help`).

    OUTPUT:
        --format FORMAT     csv: term,id,author,created_at,retweets,quotes,replies;
                            json, ndjson: per term {"term","tweets","posts":[{"id",
                            "author","created_at","retweets","quotes","replies"}]}
                            (unknown: null); table: per term, posts aligned for
                            people; xlsx: a sheet of posts per term (needs -o);
                            html: one self-contained page
                            [default: table on a terminal, csv otherwise; with
                            -o, from FILE's name: .xlsx, .html, .json, ...]
        -o, --output FILE   Write the posts to FILE (whole or not at all: a
                            temporary file renamed into place), not stdout
        --columns LIST      Pick the columns, in order, from term, id, author,
                            created_at, retweets, quotes, replies, text (X's full
                            text, when a copy of it was read; from a store, one
                            ingested with --keep-text)
                            [default: term,id,author,created_at,retweets,quotes,replies]
        --min-count N       Leave out posts with retweets + quotes + replies under N
                            [default: 2]
        --top N             Keep the first N posts of each term [default: all]
        Posts are ordered by retweets, then quotes, then replies, highest
        first, then by id (ascending, as a number). X's author (@name,
        normalised) and created_at (ISO 8601 UTC) are what X's own record
        says when X was read, else what the first copy read says (a
        retweet's or quote's embedded copy, a reply's in_reply_to_screen_name);
        a time nobody says is the time in X's snowflake id; else empty.
        Bluesky: a repost retweets its subject, a post replies to its
        reply.parent and quotes the post its record embeds; a post's AT-URI
        names its author. Mastodon: a reblog retweets its status, a quote
        quotes quote.quoted_status; a reply (by in_reply_to_id, a number of
        one server) is not counted.

    FILTERS (as for `smashtag report`; they narrow the matching tweets, not X):
    \(Usage.filterOptions)

    INPUT AND RUNNING (as for `smashtag report`):
        --store FILE, --wait SECONDS, -j/--jobs N, --strict, --max-record BYTES,
        --no-input-limits, --deleted WHAT, --mentions-from SOURCE, --id-column,
        --text-column, --author-column NAME, --progress[=MODE], --stats FILE,
        -q/--quiet, -h/--help

    MEMORY: dedup keeps a set of tweet ids per term, as a report does; the
    counts about 40 bytes per post and term; and, to say who wrote each X,
    about 24 bytes per tweet read (plus its text with --columns text).

    EXAMPLES:
        smashtag posts '#stanford' dumps/ --top 20
        smashtag posts '*' dumps/ --columns id,author,retweets,text -o posts.xlsx
        smashtag posts -t '#stanford' -t @nasa --store tweets.db --format json

    """

    var terms: [Term] = []
    var paths: [String] = []
    var output = PostsOutput()
    var columns = PostsColumn.standard
    var minCount = 2
    var top: Int?
    var input = InputOptions()
    var filters = FilterOptions()
    var quiet = false
    var progress = ProgressDisplay.Mode.auto
    var statsPath: String?
    var store: String?
    var wait = 5.0

    static let usageLine = "usage: smashtag posts TERM [PATH...] [options]"

    static let options = ["--help", "--term", "--min-count", "--top", "--columns", "--progress", "--stats"]
        + ReportOutput.options + StoreOptions.names + InputOptions.names + FilterOptions.filterNames

    /// Parses the arguments after `posts`.
    ///
    /// - Throws: `UsageError` for anything that is not a valid invocation.
    init(arguments: [String]) throws(UsageError) {
        var a = ArgumentReader(arguments)
        var termFlags: [String] = []
        while let name = try a.nextOption() {
            if try input.parse(name, &a) { continue }
            if FilterOptions.filterNames.contains(name), try filters.parse(name, &a, columns: false) { continue }
            switch name {
            case "-h", "--help": throw UsageError.help(Self.usage)
            case "-t", "--term": termFlags.append(try a.value())
            case "--format", "-o", "--output": _ = try output.parse(name, &a)
            case "--columns": columns = try Self.columns(try a.value())
            case "--min-count": minCount = try a.number(min: 1)
            case "--top": top = try a.number(min: 1)
            case "-q", "--quiet": quiet = true
            case "--progress": progress = try ProgressDisplay.Mode.parse(&a)
            case "--stats": statsPath = try a.value()
            case "--store": store = try a.value()
            case "--wait": wait = try StoreOptions.seconds(try a.value())
            case "--by", "--tz", "--kinds":
                throw UsageError("\(name) does not apply to posts: a post's counts are over the whole input "
                                 + "and count no mentions (SPEC §15); use `smashtag report \(name) ...` for mentions")
            default:
                throw UsageError.unknownOption(name, known: Self.options)
            }
        }
        (terms, paths, _) = try Terms.parse(flags: termFlags, positional: a.positional, store: &store, command: "posts",
                                            reads: "reads posts from the store alone", then: "ask without paths")
        try output.check()
    }

    /// `--columns LIST`: names from `PostsColumn`, each once.
    static func columns(_ list: String) throws(UsageError) -> [PostsColumn] {
        var out: [PostsColumn] = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let c = PostsColumn(rawValue: String(name)) else {
                throw UsageError("--columns: unknown column '\(name)' (posts has "
                                 + PostsColumn.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            guard !out.contains(c) else { throw UsageError("--columns: '\(name)' is given twice") }
            out.append(c)
        }
        return out
    }

    /// Runs the count; returns the exit status.
    func run() -> Int32 {
        let started = DispatchTime.now()
        if let store { return postsFromStore(store, started: started) }
        var run = input.parallelRun(terms)
        run.filter = filters.filter
        run.facts.mentionKinds = []
        run.facts.references = true
        run.facts.texts = columns.contains(.text)
        let aggregator = PostsAggregator(terms: terms, texts: columns.contains(.text))
        let scan: DumpScan
        switch DumpScan.run(run, input: input, paths: paths, quiet: quiet, progress: progress, into: aggregator) {
        case .exit(let code): return code
        case .scanned(let s): scan = s
        }
        let posts = aggregator.posts(minCount: minCount, top: top)
        if let status = output.write(posts, columns: columns, console: scan.console, interrupts: scan.interrupts) { return status }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        var summary = RunSummary(scan.ledger, reports: [], duplicates: aggregator.duplicates, elapsed: elapsed)
        summary.filter = filters.filter
        summary.matched = posts.map { ($0.term.description, $0.tweets) }
        return scan.finish(summary, quiet: quiet, progress: progress, statsPath: statsPath)
    }

    /// `posts --store`: the same posts, from the store alone.
    func postsFromStore(_ path: String, started: DispatchTime) -> Int32 {
        do {
            let store = try Store(path: path, access: .read, wait: wait)
            let posts = try store.posts(terms, minCount: minCount, top: top, filter: filters.filter,
                                        texts: columns.contains(.text))
            let console = Console(quiet: quiet)
            if let status = output.write(posts, columns: columns, console: console, interrupts: nil) { return status }
            if !quiet {
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
                Console.writeStderr("smashtag: store \(path), \(try store.tweetCount) tweets; matched "
                                    + posts.map { "\($0.term): \($0.tweets)" }.joined(separator: ", ")
                                    + String(format: "; %.2f s\n", elapsed))
            }
            return 0
        } catch let error as StoreError {
            return storeFailure(error)
        } catch let error as UsageError {
            return usageFailure(error, usageLine: "usage: smashtag posts TERM... --store FILE [options]")
        } catch {
            return usageFailure(UsageError("\(error)"), usageLine: "usage: smashtag posts TERM... --store FILE [options]")
        }
    }
}

/// `--format` and `-o` of `smashtag posts`.
struct PostsOutput {
    var format: PostsFormat?
    var path: String?

    mutating func parse(_ name: String, _ reader: inout ArgumentReader) throws(UsageError) -> Bool {
        switch name {
        case "--format":
            let v = try reader.value()
            guard let f = PostsFormat(rawValue: v) else {
                throw UsageError("--format must be csv, json, ndjson, table, xlsx or html, not '\(v)'")
            }
            format = f
        case "-o", "--output":
            path = try ReportOutput.path(name, &reader)
        default:
            return false
        }
        return true
    }

    /// Refuses a workbook without `-o`.
    func check() throws(UsageError) {
        if resolved == .xlsx && path == nil {
            throw UsageError("--format xlsx writes a workbook to a file: give -o FILE (never a terminal or standard output)")
        }
    }

    var resolved: PostsFormat {
        if let format { return format }
        if let path { return PostsFormat(fileName: path) ?? .csv }
        return isatty(1) == 1 ? .table : .csv
    }

    /// Writes the posts; nil when done, else the exit status to end with (as `ReportOutput.write`).
    func write(_ posts: [TermPosts], columns: [PostsColumn], console: Console, interrupts: InterruptHandler?) -> Int32? {
        let format = resolved
        return ReportOutput.deliver(to: path, binary: format.isBinary, console: console, interrupts: interrupts) {
            try PostsWriter.bytes(posts, columns: columns, as: format, width: Console.terminalWidth(),
                                  color: format == .table && path == nil && Console.wantsColor(fd: 1))
        }
    }
}
