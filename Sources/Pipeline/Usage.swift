/// The usage texts: the specification of the interface (checked by a test).
enum Usage {
    static let version = "0.1.0"

    static let main = """
    smashtag — which hashtags and users are most popular among the tweets that
    match a search term, from tweet dumps of any shape.

    USAGE:
        smashtag report TERM [PATH...] [options]
        smashtag report -t TERM [-t TERM...] [PATH...] [options]

    COMMANDS:
        report      Count the mentions of the tweets matching each term

    Run `smashtag report --help` for the terms, inputs, formats and options.

    GLOBAL OPTIONS:
        -h, --help      Print this help and exit
        --version       Print the version (and libarchive's) and exit

    EXIT STATUS:
        0  done (skipped bad input is reported on stderr)
        1  input problem under --strict, or nothing at all could be read
        2  usage error
        3  the store is locked, corrupt or cannot be written

    """

    static let report = """
    smashtag report — popularity of hashtags and users among matching tweets

    USAGE:
        smashtag report TERM [PATH...] [options]
        smashtag report -t TERM [-t TERM...] [PATH...] [options]

    With -t, every positional argument is a path. With no path, standard input
    is read; `-` also names standard input.

    TERMS (case-insensitive, Unicode NFC + lowercase):
        #tag        tweets whose hashtags include tag (exactly: #thanku ≠ #thankunext)
        @name       tweets that mention @name (mentions, not authorship)
        from:name   tweets written by @name
        word        tweets whose full text holds word as a whole word
        *           every tweet
        A retweet carries the retweeted tweet's mentions and author. Each tweet
        counts once per term, however often it is read (deduplicated by id).

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
        --text-column NAME  CSV text column [default: full_text, text, tweet, content]
        --id-column NAME    CSV id column [default: id_str, id, tweet_id]
        --author-column NAME
                            CSV author column [default: author.username,
                            user_screen_name, screen_name, username, user.screen_name]

    OUTPUT:
        --format FORMAT     csv, json, ndjson or table
                            [default: table on a terminal, csv otherwise]
        --min-count N       Leave out mentions counted fewer than N times [default: 2]
        --top N             Keep the first N hashtags and N users of each term [default: all]

    RUNNING:
        -j, --jobs N        Worker threads [default: all cores]
        --strict            Stop at the first bad input with exit status 1
                            [default: skip it, count it, report it on stderr]
        --max-record BYTES  Longest record read; longer ones are skipped and
                            reported (suffixes K, M, G) [default: 16M]
        -q, --quiet         No run summary on stderr (bad input is still reported)
        -h, --help          Print this help and exit

    The report alone goes to standard output; the summary and warnings go to
    standard error.

    EXAMPLES:
        smashtag report '#stanford' dumps/
        smashtag report -t '#stanford' -t from:stanford dumps/ --format json
        zstdcat day.jsonl.zst | smashtag report stanford --min-count 5 --top 20

    """
}
