/// The usage texts: the specification of the interface (checked by a test).
enum Usage {
    static let version = "0.1.0"

    static let main = """
    smashtag — which hashtags and users are most popular among the tweets that
    match a search term, from tweet dumps of any shape.

    USAGE:
        smashtag report TERM [PATH...] [options]
        smashtag report -t TERM [-t TERM...] [PATH...] [options]
        smashtag ingest PATH... --store FILE [--keep-text]
        smashtag report TERM... --store FILE
        smashtag pairs TERM... [PATH...] [options]
        smashtag track TERM... | untrack TERM... | terms      (with --store)
        smashtag history | prune ... | export | import FILE   (with --store)

    COMMANDS:
        report      Count the mentions of the tweets matching each term
        pairs       Count the pairs of mentions those tweets carry together (a graph)
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

    static let report = """
    smashtag report — popularity of hashtags and users among matching tweets

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
        --top N             Keep the first N hashtags and N users of each term [default: all]
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
        -j, --jobs N        Worker threads [default: all cores]
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
        -h, --help          Print this help and exit

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

    static let pairs = """
    smashtag pairs — which mentions go together among the matching tweets

    USAGE:
        smashtag pairs TERM [PATH...] [options]
        smashtag pairs -t TERM [-t TERM...] [PATH...] [options]
        smashtag pairs TERM... --store FILE [options]
        smashtag extract ... | smashtag aggregate --pairs [options]

    Among the distinct tweets matching each term, counts the unordered pairs
    of distinct mentions (hashtags and users) one tweet carries: a pair's
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
                            aligned for people
                            [default: table on a terminal, csv otherwise]
        --min-count N       Leave out pairs of weight under N [default: 2]
        --top N             Keep the N heaviest pairs of each term [default: all]
        --without-term      Leave out pairs holding the term's own mention (#tag
                            and @name terms; from:, word and * have none)
        Pairs are ordered by weight, heaviest first, then source, then target.

    FILTERS (as for `smashtag report`, before matching and dedup):
        --since T, --until T, --retweets MODE, --lang CODES

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
        smashtag pairs '#stanford' dumps/ --without-term --format gexf > g.gexf
        smashtag pairs -t '#stanford' -t @nasa --store tweets.db --format json

    """

    static let extract = """
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
        --since T, --until T, --retweets MODE, --lang CODES
                              Filters, applied here, before matching: as for
                              `smashtag report`
        --columns LIST        The report's columns, as for `smashtag report`:
                              with display, originals, retweets or authors the
                              lines are format version 2, which also carries
                              each tweet's kind, author and spellings
        --by UNIT             Carry each tweet's creation time (version 2) and
                              leave out tweets of unknown time, for
                              `aggregate --by` (any unit and --tz there)
        -0, --null            Paths end with NUL, not a line break, in
                              --list-inputs and --paths-from-stdin (any path)
        -j, --jobs N          Worker threads [default: all cores]
        --strict              Stop at the first bad input with exit status 1
        --max-record BYTES    Longest record read [default: 16M]
        --no-input-limits, --deleted WHAT: as for `smashtag report`
        -q, --quiet           Nothing on stderr but bad input
        -h, --help            Print this help and exit

    """

    static let aggregate = """
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

    OPTIONS:
        --format FORMAT     csv, json, ndjson, table, xlsx or html, as for
                            `smashtag report` (with --pairs: csv, json, ndjson,
                            table or gexf) [default: table on a terminal, csv
                            otherwise; with -o, from FILE's name]
        -o, --output FILE   Write the report to FILE, as `smashtag report -o` does
        --min-count N       Leave out mentions counted (pairs weighing) fewer than N
                            times [default: 2]
        --top N             Keep the first N hashtags and N users of each term
                            (with --pairs: the N heaviest pairs) [default: all]
        --pairs             Pairs of mentions, as `smashtag pairs`
        --without-term      With --pairs: as `smashtag pairs --without-term`
        --columns LIST      The report's columns, as for `smashtag report`
                            [default: term,type,mention,count]
        --by UNIT, --tz ZONE
                            A series over time, as for `smashtag report`;
                            the input must come from `extract --by`
        --since T, --until T
                            With --by only: the span of the series (times
                            outside it are left out); the filters themselves
                            belong to extract
        --strict            Stop at the first bad line with exit status 1
        -q, --quiet         Nothing on stderr but bad input
        -h, --help          Print this help and exit

    """
}
