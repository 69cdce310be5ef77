import Foundation
import Stages

/// `smashtag report`: options, wiring of the stages, output, exit status.
struct ReportCommand: Command {
    static let usage = """
    smashtag report — popularity of hashtags, users, links and more among matching tweets

    USAGE:
        smashtag report TERM [PATH...] [options]
        smashtag report -t TERM [-t TERM...] [PATH...] [options]
        smashtag report TERM... --store FILE [options]

    With -t, every positional argument is a path; with --store, every one is a
    term. With no path, standard input is read (or the store named by
    SMASHTAG_STORE, when set); `-` also names standard input.

    TERMS (case-insensitive, Unicode NFC + lowercase):
        #tag        tweets whose hashtags include tag (exactly: #thanku ≠ #thankunext)
        @name       tweets that mention @name (mentions, not authorship)
        from:name   tweets written by @name
        $sym        tweets whose cashtags include sym ($aapl)
        domain:NAME tweets with a link whose host is NAME or under it
                    (domain:bbc.co.uk: news.bbc.co.uk, not notbbc.co.uk)
        url:LINK    tweets with a link of LINK's key (tracking items,
                    fragment, default port and trailing / aside)
        word        tweets whose full text holds word as a whole word
        *           every tweet
        A retweet carries the retweeted tweet's mentions, links and author. Each
        tweet counts once per term, however often it is read (deduplicated by id).
        A Mastodon account is @user@host, a Bluesky account @did:plc:... (by DID,
        also after from:); a Bluesky repost carries its subject's mentions.

    INPUTS:
        Files, folders (walked recursively; hidden entries and media/web files
        skipped) and `-`. gzip, bzip2, xz, zstd, lz4, tar, zip and 7z are
        detected from the bytes, also nested (a tar of .json.bz2 members).
        Tweets: API v1.1 lines and documents, premium search pages, API v2
        pages and stream lines, flattened v2 tweets, account-archive tweets.js,
        and CSV exports: a header naming an id and a text column (twarc-csv,
        spreadsheets), quoted line ends and all.

    MENTIONS:
        --mentions-from SOURCE
                            entities: the API's entities (CSV rows without entity
                            columns: their text); text: every tweet's text, by
                            twitter-text's rules, for dumps fetched without
                            entities [default: entities]
    \(Usage.textColumnOption)
    \(Usage.idColumnOption)
        --author-column NAME
                            CSV author column [default: author.username,
                            user_screen_name, screen_name, username, user.screen_name]

    FILTERS (before matching: a tweet left out counts for nothing):
        --since T           Tweets created at or after T: a date (2020-03-01,
                            00:00 UTC) or a date-time with Z or an offset
                            (2020-03-01T12:00:00+01:00); time from created_at,
                            else the snowflake id; tweets of unknown time are
                            left out and counted in the summary
        --until T           Tweets created before T (exclusive)
        --retweets MODE     include, exclude (originals only) or only
                            [default: include]
        --lang CODES        Tweets whose own lang is one of CODES (en,es,und;
                            any case); tweets without lang never match

    OUTPUT:
        --format FORMAT     csv, json, ndjson, table, xlsx or html
                            [default: with -o, the one FILE's name ends in
                            (.xlsx, .html, .csv, .json, .ndjson, .txt), else
                            csv; without, table on a terminal, csv otherwise]
        -o, --output FILE   Write the report to FILE, not standard output: a
                            new file renamed into place when complete (its
                            mode and links kept), or into a FIFO or device
                            (- is standard output, when not a terminal for xlsx)
        --min-count N       Leave out mentions counted fewer than N times [default: 2]
        --top N             Keep the first N rows of each type of each term [default: all]
        --kinds LIST        The kinds of mention counted, printed in this order:
                            hashtag, user, symbol ($aapl), url (a link's key:
                            host, port, path and query without tracking items),
                            host (without www.), domain (registrable, by the
                            system's Public Suffix List), poster (who wrote the
                            tweet; for a retweet, who retweeted)
                            [default: hashtag,user]
        --columns LIST      Columns, in order, from term, type, mention, count,
                            display (the most frequent spelling, #Stanford),
                            originals, retweets, authors (distinct authors)
                            [default: term,type,mention,count]

    OVER TIME:
        --by UNIT           A series: counts per hour, day, week, month or year
                            of creation time, every chosen mention in every
                            bucket from the term's first to its last (or those
                            of --since/--until), 0 where absent; mentions are
                            chosen over the whole period (--min-count and
                            --top on their totals), each bucket's --columns
                            counted over its own tweets (from dumps, a store
                            or extract | aggregate alike); tweets of unknown
                            time are left out and counted in the summary. Buckets:
                            2020-03-01T13, 2020-03-01, 2020-W09 (ISO week),
                            2020-03, 2020; CSV adds a bucket column after term,
                            JSON a "bucket" field, one object per term and bucket
        --tz ZONE           The zone buckets are named in, by wall-clock time:
                            an IANA name from the system's tz database
                            (Europe/Berlin) [default: UTC]

    FORMATS FOR PEOPLE:
        table  Mention and count aligned for a terminal (wide characters count
               two columns); control characters from the data shown escaped
        xlsx   An Excel workbook (-o FILE only, never a terminal): a summary
               sheet, then a sheet per term with typed cells (mentions are
               text, never formulas), the header frozen, and a bar chart of
               the top 20 hashtags and users
        html   One page with no script and nothing fetched: the summary,
               inline SVG bar charts of the top 20, every row; for phones
               and print

    STORE:
        --store FILE        Report from a store (`smashtag ingest`) instead of
                            from paths [default: $SMASHTAG_STORE when no path
                            is given]. Any #tag, @name, from:name or * term;
                            word terms need a store that keeps text
        --wait SECONDS      Wait this long for a locked store [default: 5]

    RUNNING:
        -j, --jobs N        Worker threads [default: all cores]; with --store,
                            the connections that read the posts [default: one
                            per core, up to 4, on a store of about 100,000
                            posts or more]
        --strict            Stop at the first bad input with exit status 1
                            [default: skip it, count it, report it on stderr]
        --max-record BYTES  Longest record read; longer ones are skipped and
                            reported, and a stream with no record in 64 × BYTES
                            (a decompression bomb) is given up (suffixes K, M,
                            G) [default: 16M]
        --no-input-limits   Read every input to its end: an input is otherwise
                            given up, and named, when it expands more than 200
                            times past 1 GiB, holds more than 1,000,000 archive
                            members or nests archives 8 deep, or starts with
                            100,000 records none of which could be a tweet
        --deleted WHAT      skip or include an account archive's deleted
                            tweets (deleted-tweets.js) [default: skip, named]

    MESSAGES (all on stderr; stdout carries the report alone):
        --progress[=MODE]   terminal: a live line (bytes, MB/s, inputs, tweets,
                            ETA) redrawn up to 10 times a second, then erased;
                            plain: a line every 5 s and the summary, for logs;
                            off: none [default: terminal when stderr is one]
        --stats FILE        Write the run summary to FILE as one JSON object
                            (written as -o FILE is)
        -q, --quiet         No progress and no summary (bad input is still reported)
    \(Usage.helpOption)

    The run summary (inputs, bytes, tweets, matches per term, duplicates,
    notices, bad records by reason, time) follows the report when stderr is
    a terminal or with --progress=plain. Bad input is always reported on
    stderr, by file, member and line. A closed stdout (`| head`) ends the run
    quietly with status 0; SIGINT or SIGTERM stops it within a second with
    status 130 or 143.

    EXIT STATUS:
        0  done (skipped bad input is reported on stderr)
        1  bad input under --strict, nothing at all could be read, or the
           report or --stats could not be written (the file is named)
        2  usage error
        3  with --store: the store is locked, corrupt or cannot be read
        130, 143  interrupted by SIGINT, SIGTERM (a file being written is
           left as it was)

    EXAMPLES:
        smashtag report '#stanford' dumps/
        smashtag report -t '#stanford' -t from:stanford dumps/ --format json
        zstdcat day.jsonl.zst | smashtag report stanford --min-count 5 --top 20
        smashtag report '#stanford' --store tweets.db
        smashtag report -t '#stanford' -t @nasa dumps/ --top 50 -o stanford.xlsx

    """

    static let usageLine = "usage: smashtag report TERM [PATH...] [options]"


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
            case "-h", "--help": throw UsageError.help(Self.usage)
            case "-t", "--term": termFlags.append(try value())
            case "--min-count": minCount = try a.number(min: 1)
            case "--top": top = try a.number(min: 1)
            case "-q", "--quiet": quiet = true
            case "--progress": progress = try ProgressDisplay.Mode.parse(&a)
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

    /// Every option `report` takes, built from the option groups' own names (for "did you mean").
    static let options = ["--help", "--term", "--min-count", "--top", "--progress", "--stats"] + ReportOutput.options
        + StoreOptions.names + InputOptions.names + FilterOptions.names

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
        run.facts = filters.facts
        run.times = buckets != nil
        let aggregator = Aggregator(terms: terms, facts: filters.facts, buckets: buckets)
        let scan: DumpScan
        switch DumpScan.run(run, input: input, paths: paths, quiet: quiet, progress: progress, into: aggregator) {
        case .exit(let code): return code
        case .scanned(let s): scan = s
        }
        let reports = aggregator.reports(minCount: minCount, top: top)
        let shown: [TermReport]
        do {
            shown = buckets == nil ? reports
                : try aggregator.seriesReports(minCount: minCount, top: top, since: filters.filter.since, until: filters.filter.until)
        } catch {
            Console.writeStderr("smashtag: \(VisibleText.escaped(error.message))\n")
            return 1
        }
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
