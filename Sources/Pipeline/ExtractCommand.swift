import Foundation
import Stages

/// `smashtag extract`: the read, parse, extract and match stages alone,
/// writing extract lines (`ExtractFormat`) for `smashtag aggregate`, so the
/// work can be spread over processes or machines (a Spark job pipes
/// partitions through it).
struct ExtractCommand: Command {
    static let usage = """
    smashtag extract — the matching half of a report, as lines for `aggregate`

    USAGE:
        smashtag extract TERM [PATH...] [options]
        smashtag extract -t TERM [-t TERM...] [PATH...] [options]
        ... | smashtag extract -t TERM --paths-from-stdin
        smashtag extract --list-inputs [PATH...]

    Reads like `smashtag report` (same terms, inputs, formats of tweets) and
    writes, instead of a report, one line per (term, tweet, mention) of every
    matching tweet, so extracts of disjoint inputs can run anywhere and be
    combined by `smashtag aggregate`:

        H<TAB>smashtag-extract<TAB>1<TAB>TERM...     header (format version 1, the terms)
        M<TAB>TERM<TAB>TWEET-ID<TAB>MENTION         a matching tweet's mention
        T<TAB>TERM<TAB>TWEET-ID                     a matching tweet with no mention

    With --columns needing more, the lines are version 2: the header reads
    H<TAB>smashtag-extract<TAB>2<TAB>carries=kind,author,spellings<TAB>TERM...,
    a T line with the tweet's kind (o or r) and author (@name, or -) opens
    every tweet, and each M line ends with the spellings the tweet writes
    its mention in. With --by, the T line also ends with the tweet's creation
    time (seconds since 1970 UTC) and the header says carries=time (or
    carries=kind,author,spellings,time).

    Backslash, tab, CR and LF inside a field are written \\\\, \\t, \\r, \\n.
    `smashtag extract ... | smashtag aggregate` prints exactly what
    `smashtag report ...` prints.

    OPTIONS:
        -t, --term TERM       A term (repeat for more); see `smashtag report --help`
        --paths-from-stdin    Read input paths from standard input, one a line
        --mentions-from SRC   entities or text, and --id-column, --text-column,
                              --author-column NAME: as for `smashtag report`
        --list-inputs         Print the files a run would read (folders walked,
                              in reading order), one a line, and read nothing
    \(Usage.filterOptions)
                              Filters, applied here, before matching: as for
                              `smashtag report`
        --columns LIST        The report's columns, as for `smashtag report`:
                              with display, originals, retweets or authors the
                              lines are format version 2, which also carries
                              each tweet's kind, author and spellings
        --kinds LIST          The kinds of mention written, as for `smashtag
                              report` (each line's mention starts with its kind's
                              sign: # @ $, + url, ^ host, = domain, ! poster)
                              [default: hashtag,user]
        --posts               Write `smashtag-posts` lines for `aggregate --posts`
                              (SPEC §15): a P line per matching tweet with what
                              it retweets, quotes, replies to, and an S line
                              per copy of a post read (every tweet read, and
                              the copies it embeds); --columns text adds texts
        --by UNIT             Carry each tweet's creation time (version 2) and
                              leave out tweets of unknown time, for
                              `aggregate --by` (any unit and --tz there)
        --trend               Carry what `aggregate --trend` needs (SPEC §14):
                              version 2 with kind, author, spellings and time
                              (carries=kind,author,spellings,time), tweets of
                              unknown time left out, and --retweets exclude
                              unless --retweets says otherwise, as for
                              `smashtag trend`; the windows are aggregate's
        -0, --null            Paths end with NUL, not a line break, in
                              --list-inputs and --paths-from-stdin (any path)
        -j, --jobs N          Worker threads [default: all cores]
        --strict              Stop at the first bad input with exit status 1
        --max-record BYTES    Longest record read [default: 16M]
        --no-input-limits, --deleted WHAT: as for `smashtag report`
        -q, --quiet           Nothing on stderr but bad input
        -h, --help            Print this help and exit

    """

    static let usageLine = "usage: smashtag extract TERM [PATH...] [options]"


    var terms: [Term] = []
    var paths: [String] = []
    /// How the inputs are read (`--jobs`, `--strict`, `--max-record`, `--mentions-from`, CSV columns).
    var input = InputOptions()
    /// `--since`, `--until`, `--retweets`, `--lang` (applied here, before matching) and `--columns` (what the lines carry).
    var filters = FilterOptions()
    /// `--by` (and `--tz`): the lines carry each tweet's creation time, and tweets of unknown time are left out.
    var buckets: TimeBuckets?
    var quiet = false
    var pathsFromStdin = false
    var listInputs = false
    /// `-0`/`--null`: paths end with NUL, not a line break (so any path can be listed and read back).
    var nullSeparated = false
    /// `--trend`: the lines `aggregate --trend` reads (SPEC §14).
    var trend = false
    /// `--posts` (SPEC §15): posts lines (`PostsLines`) for `aggregate --posts`, with texts when `--columns` has `text`.
    var posts = false
    var postTexts = false

    init(arguments: [String]) throws(UsageError) {
        var a = ArgumentReader(arguments)
        var termFlags: [String] = []
        var columns: String?
        while let option = try a.nextOption() {
            if try input.parse(option, &a) { continue }
            // With --posts, --columns names posts columns: read once the options are known.
            if option == "--columns" { columns = try a.value(); continue }
            if try filters.parse(option, &a) { continue }
            switch option {
            case "-h", "--help": throw UsageError.help(Self.usage)
            case "-t", "--term": termFlags.append(try a.value())
            case "-q", "--quiet": quiet = true
            case "--paths-from-stdin": pathsFromStdin = true
            case "--list-inputs": listInputs = true
            case "-0", "--null": nullSeparated = true
            case "--trend": trend = true
            case "--posts": posts = true
            default:
                throw UsageError.unknownOption(option, known: ["--help", "--term", "--quiet", "--paths-from-stdin", "--list-inputs",
                                                               "--null", "--trend", "--posts"] + InputOptions.names + FilterOptions.names)
            }
        }
        if posts && trend { throw UsageError("--posts and --trend are two kinds of lines: give one") }
        if posts {
            if let columns { postTexts = try PostsCommand.columns(columns).contains(.text) }
            if filters.zone != nil || filters.by != nil || filters.kinds != .standard {
                throw UsageError("--by, --tz and --kinds do not apply to --posts (SPEC §15)")
            }
        } else if let columns {
            var reader = ArgumentReader(["--columns", columns])
            if let option = try reader.nextOption() { _ = try filters.parse(option, &reader) }
        }
        var positional = a.positional
        // A listing reads no tweet, so it needs no term: every argument is a path.
        if !(listInputs && termFlags.isEmpty) {
            terms = try Terms.parse(flags: termFlags, positional: &positional, command: "extract")
        }
        paths = positional
        buckets = try filters.timeBuckets()
        if trend {
            if buckets != nil { throw UsageError("--trend carries every tweet's time already: leave out --by") }
            // As `smashtag trend` reads: no boosts unless asked, times known.
            if !filters.retweetsGiven { filters.filter.retweets = .exclude }
            filters.filter.timeNeededBy = "--trend"
        }
        if pathsFromStdin && paths.contains("-") {
            throw UsageError("--paths-from-stdin reads paths from standard input, so '-' cannot name it too")
        }
    }

    func run() -> Int32 {
        var inputs = paths
        if pathsFromStdin && nullSeparated {
            // Paths as `find -print0` and `--list-inputs --null` write them: any byte but NUL.
            let all = FileHandle.standardInput.readDataToEndOfFile()
            for path in all.split(separator: 0, omittingEmptySubsequences: true) {
                inputs.append(String(decoding: path, as: UTF8.self))
            }
        } else if pathsFromStdin {
            while let line = readLine(strippingNewline: true) {
                let path = line.hasSuffix("\r") ? String(line.dropLast()) : line
                if !path.isEmpty { inputs.append(path) }
            }
        }
        if inputs.isEmpty && !pathsFromStdin { inputs = ["-"] }
        if listInputs { return list(inputs) }
        guard let setup = InputRun.start(paths: inputs, strict: input.strict, quiet: quiet, splitSize: Terms.splitSize()) else {
            return 1
        }
        let (console, interrupts) = (setup.console, setup.interrupts)
        if posts { return runPosts(setup) }
        // Columns beyond the counts need each tweet's kind, author and spellings: format version 2.
        let facts = filters.columns.facts.any || trend
        let writer = ExtractWriter(terms: terms, facts: facts, times: buckets != nil || trend) { Console.writeStdout($0) }
        var run = ParallelRun(terms: terms, jobs: input.jobs, maxRecord: input.maxRecord, extractor: input.extractor,
                              csvColumns: input.csvColumns)
        run.policy = input.policy
        if let b = InputOptions.batchBytes { run.batchBytes = b }
        run.filter = filters.filter
        run.times = buckets != nil || trend
        if facts { run.facts = .all }
        run.facts.mentionKinds = filters.kinds
        let ledger = run.run(setup.plan.units, control: setup.control, into: writer, ledger: setup.ledger())
        if let code = setup.stopped() { return code }
        interrupts.cancel()
        writer.writeHandles()
        writer.flush()
        if writer.closed { return 0 }
        console.reportProblems(ledger)
        console.hintWithoutEntities(ledger, mentionsFrom: input.mentionsFrom)
        return ledger.nothingRead ? 1 : 0
    }
}

extension ExtractCommand {
    /// `extract --posts`: posts lines of every tweet read (SPEC §15).
    func runPosts(_ setup: InputRun) -> Int32 {
        let writer = PostsLineWriter(terms: terms, texts: postTexts) { Console.writeStdout($0) }
        var run = ParallelRun(terms: terms, jobs: input.jobs, maxRecord: input.maxRecord, extractor: input.extractor,
                              csvColumns: input.csvColumns)
        run.policy = input.policy
        if let b = InputOptions.batchBytes { run.batchBytes = b }
        run.filter = filters.filter
        run.facts.mentionKinds = []
        run.facts.references = true
        run.facts.texts = postTexts
        let ledger = run.run(setup.plan.units, control: setup.control, into: writer, ledger: setup.ledger())
        if let code = setup.stopped() { return code }
        setup.interrupts.cancel()
        writer.writeHandles()
        writer.flush()
        if writer.closed { return 0 }
        setup.console.reportProblems(ledger)
        setup.console.hintWithoutEntities(ledger, mentionsFrom: input.mentionsFrom)
        return ledger.nothingRead ? 1 : 0
    }

    /// `--list-inputs`: the files a run would read, in the order it reads
    /// them (folders walked, files that are plainly not dumps left out), one
    /// a line, for a framework that spreads them over machines and hands them
    /// back through `--paths-from-stdin`. Nothing is read.
    ///
    /// - Complexity: one `stat` per walked entry, plus a look at the members
    ///   of each uncompressed tar of 1 MiB or more; memory O(paths).
    func list(_ inputs: [String]) -> Int32 {
        let plan = InputPlan(paths: inputs, splitSize: .max)
        let console = Console(quiet: quiet)
        guard console.warnAbout(plan, strict: input.strict) else { return 1 }
        var out = ""
        var previous: String?
        for unit in plan.units {
            let path: String
            switch unit.kind {
            case .standardInput: path = "-"
            case .file(let p), .range(let p, _), .tarMember(let p, _, _): path = p
            }
            // The members of a tar are units of their own: list the tar once.
            if !unit.startsInput && path == previous { continue }
            previous = path
            if nullSeparated {
                out += path + "\0"
                continue
            }
            guard !path.contains(where: \.isNewline) else {
                console.warn("\(path): a path with a line break cannot be listed one a line; left out (--null lists it)")
                if input.strict { return 1 }
                continue
            }
            out += path + "\n"
        }
        guard Console.writeStdout(out) else { return 0 }
        return plan.units.isEmpty && !plan.problems.isEmpty ? 1 : 0
    }
}
