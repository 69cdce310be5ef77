/// The top-level help, the version, and the lines several commands' usage
/// texts share, so each is written once. Each command's own usage text opens
/// its file (`ReportCommand.usage`, `IngestCommand.usage`, ...); all are the
/// specification of the interface, checked by tests.
enum Usage {
    static let version = "0.1.0"

    /// `smashtag --help` (and, on standard error, `smashtag` alone).
    static let main = """
    smashtag — which hashtags and users are most popular among the tweets that
    match a search term, from tweet dumps of any shape.

    USAGE:
        smashtag report TERM [PATH...] [options]
        smashtag report -t TERM [-t TERM...] [PATH...] [options]
        smashtag ingest PATH... --store FILE [--keep-text]
        smashtag report TERM... --store FILE
        smashtag pairs TERM... [PATH...] [options]
        smashtag trend TERM... [PATH...] --current WINDOW [options]
        smashtag posts TERM... [PATH...] [options]
        smashtag track TERM... | untrack TERM... | terms      (with --store)
        smashtag history | prune ... | export | import FILE   (with --store)

    COMMANDS:
        report      Count the mentions of the tweets matching each term
        pairs       Count the pairs of mentions those tweets carry together (a graph)
        trend       Which mentions are rising: a current window against a baseline
        posts       Rank the posts those tweets retweet, quote and reply to
        extract     The same reading and matching, written as lines for `aggregate`
        aggregate   Dedup and count extract lines into a report (as `report` would)
        ingest      Read dumps into a store, each tweet once, each file once
        track       Keep a term's counts up to date at every ingest (untrack: stop)
        terms       List the tracked terms
        history     List the runs that wrote to the store
        prune       Remove old tweets from the store and give the space back
        export      Write the store as NDJSON, one tweet a line (import: read it back)

    Run `smashtag COMMAND --help` for its options; `smashtag report --help` for
    the terms, inputs and formats. The store is an SQLite file named by --store
    or SMASHTAG_STORE.

    GLOBAL OPTIONS:
        -h, --help      Print this help and exit
        --version       Print the version (and libarchive's) and exit

    EXIT STATUS:
        0  done (skipped bad input is reported on stderr)
        1  input problem under --strict, nothing at all could be read, or
           the output could not be written (a reader that goes away is not)
        2  usage error
        3  the store is locked, corrupt or cannot be written

    """

    /// `-h, --help`, as most commands' option lists end.
    static let helpOption = "    -h, --help          Print this help and exit"

    /// The CSV id column of `report` and `ingest` (`InputOptions` parses it; defaults in `CSVColumns`).
    static let idColumnOption = "    --id-column NAME    CSV id column [default: id_str, id, tweet_id]"

    /// The CSV text column, likewise.
    static let textColumnOption = "    --text-column NAME  CSV text column [default: full_text, text, tweet, content]"

    /// SPEC §12.2's filters in one line, for the usages that refer to `report`'s (`pairs`, `extract`).
    static let filterOptions = "    --since T, --until T, --retweets MODE, --lang CODES"
}
