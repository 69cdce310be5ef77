/// The one stored-post cursor: a pass over the store's posts in id order,
/// each with its mention set (its row's links, `Links`) and, as asked, its
/// author, creation time, kind, language, text and written spellings. Every
/// store scan walks it — the pairs (`PairScan`), a report with filters,
/// columns or `--by` (`Store.scan`), a report of any terms (`TermScan`),
/// trend and posts — and matches a post against the terms in one place
/// (`mask`, through `StoredTerms`). Only the columns asked are selected (a
/// report of `#tag` and `@name` terms reads ids and links alone).
///
/// - Complexity: one pass over the rows read; memory O(a post's links).
struct StoredPosts {
    /// The columns read besides the id and links.
    struct Columns: OptionSet {
        let rawValue: UInt8
        static let author = Columns(rawValue: 1 << 0)
        static let time = Columns(rawValue: 1 << 1)
        static let kind = Columns(rawValue: 1 << 2)
        static let lang = Columns(rawValue: 1 << 3)
        static let text = Columns(rawValue: 1 << 4)
        /// The retweeted, quoted and replied-to posts (SPEC §15, schema v7).
        static let references = Columns(rawValue: 1 << 6)
    }

    private var rows: Statement
    private var upper: Int64
    /// A second pass, read when `rows` ends (`init(_:columns:span:)`): its statement and upper bound.
    private var then: (rows: Statement, upper: Int64)?
    /// The post's id.
    private(set) var id: Int64 = 0
    /// Its distinct mention ids, in the links' order (sorted by id); valid until the next `next()`.
    var mentions: UnsafeBufferPointer<Int64> { buffer.elements }
    private let buffer = MentionBuffer()

    /// Where each asked column is in the row (-1: not read).
    private let at: (author: Int32, time: Int32, kind: Int32, lang: Int32, text: Int32, retweetOf: Int32, quoteOf: Int32, replyTo: Int32)

    /// A cursor over the posts with ids in `range` (all when nil).
    init(_ db: Database, columns: Columns, range: ClosedRange<Int64>? = nil) throws(StoreError) {
        let (select, at) = Self.select(columns)
        self.at = at
        rows = try db.statement(select + " WHERE id >= ?1")
        // Scans start at the lower bound and stop past the upper one here, which costs SQLite no compare per row.
        try rows.bind(1, range?.lowerBound ?? Int64.min)
        upper = range?.upperBound ?? Int64.max
    }

    /// A cursor over the posts created in `span` (seconds since 1970 UTC,
    /// its end excluded), and perhaps a few more (times are the caller's to
    /// check): first those whose time is not their id's, by the partial
    /// index of schema v8, then the tweets of the ids whose snowflake times
    /// fall in `span`, in id order. No post is read twice: the second pass
    /// skips what the index holds.
    ///
    /// With `passes`, one of the two passes alone: a scan cut into pieces
    /// by time (`Store.scanPieces`) reads every piece's first pass, then
    /// every piece's second, in the order of one cursor over the whole span.
    ///
    /// - Complexity: the posts in `span` and an index look-up, whatever the store holds before or after.
    init(_ db: Database, columns: Columns, span: (start: Int64, end: Int64), passes: SpanPasses = .both) throws(StoreError) {
        let (select, at) = Self.select(columns)
        self.at = at
        // Each pass's SELECT is its own statement: a connection prepares each once.
        rows = try db.statement(select + " INDEXED BY \(Schema.offSnowflakeIndex) WHERE \(Schema.offSnowflake)"
                                + " AND created_at >= ?1 AND created_at < ?2")
        try rows.bind(1, span.start)
        try rows.bind(2, passes == .snowflake ? span.start : span.end)
        upper = Int64.max
        let ids = Self.snowflakeIDs(span)
        if passes != .offSnowflake && ids.lowerBound < ids.upperBound {
            let tweets = try db.statement(select + " WHERE id >= ?1 AND created_delta IS 0")
            try tweets.bind(1, ids.lowerBound)
            then = (tweets, ids.upperBound - 1)
        }
    }

    /// A cursor over the posts of unknown time (by the partial index of
    /// schema v8: a tweet whose id is a snowflake always has its time), in
    /// the index's order. With a span of the store's posts of known time
    /// (`Store.knownTimes`), it reads every post once.
    init(_ db: Database, columns: Columns, unknownTime: ()) throws(StoreError) {
        let (select, at) = Self.select(columns)
        self.at = at
        rows = try db.statement(select + " INDEXED BY \(Schema.offSnowflakeIndex) WHERE \(Schema.offSnowflake) AND created_at IS NULL")
        upper = Int64.max
    }

    /// The passes of a span a cursor reads: the posts whose time is not their
    /// id's (by the partial index), the tweets whose snowflake ids give their
    /// time, or both.
    enum SpanPasses { case both, offSnowflake, snowflake }

    /// The ids at and above the first snowflake whose snowflake second is in `span` (its end excluded).
    static func snowflakeIDs(_ span: (start: Int64, end: Int64)) -> Range<Int64> {
        // The least id of second t: its bits above the low 22 are t's first millisecond since Twitter's epoch.
        func first(_ t: Int64) -> Int64 {
            let (ms, overflow) = t.multipliedReportingOverflow(by: 1000)
            if overflow { return t < 0 ? 0 : Int64.max }
            let (since, o2) = ms.subtractingReportingOverflow(1_288_834_974_657)
            if o2 || since >= 1 << 41 { return Int64.max }
            return since <= 0 ? 0 : since << 22
        }
        let lo = max(Int64(CreatedAt.firstSnowflake), first(span.start))
        let hi = first(span.end)
        return lo < hi ? lo..<hi : lo..<lo
    }

    /// The SELECT of `columns` (the id and links first), and where each is in the row.
    private static func select(_ columns: Columns)
        -> (String, (author: Int32, time: Int32, kind: Int32, lang: Int32, text: Int32, retweetOf: Int32, quoteOf: Int32, replyTo: Int32)) {
        // Only the asked columns are selected: SQLite's loop pays for each result column of every row.
        var names = ["id", "links"]
        func column(_ c: Columns, _ name: String) -> Int32 {
            guard columns.contains(c) else { return -1 }
            names.append(name)
            return Int32(names.count - 1)
        }
        let at = (column(.author, "author"), column(.time, "created_at"), column(.kind, "retweet"), column(.lang, "lang"),
                  column(.text, "text"), column(.references, "retweet_of"), column(.references, "quote_of"),
                  column(.references, "reply_to"))
        return ("SELECT " + names.joined(separator: ", ") + " FROM tweet", at)
    }

    /// Moves to the next post; false past the last (the statement is then done).
    mutating func next() throws(StoreError) -> Bool {
        while true {
            if try rows.step() {
                id = rows.int64(0)
                if id <= upper { break }
            }
            rows.done()
            guard let (next, bound) = then else { return false }
            rows = next
            upper = bound
            then = nil
        }
        buffer.removeAll()
        if let blob = rows.blob(1) { Links.mentions(blob) { buffer.append($0) } }
        return true
    }

    /// Calls `body` with every link of the post: its mention, its spelling,
    /// and whether it is another spelling of the mention before it. Read
    /// from the row when asked, so that only the posts a scan keeps pay for
    /// their spellings.
    func written(_ body: (_ mention: Int64, _ spelling: Links.Spelling, _ again: Bool) -> Void) {
        if let blob = rows.blob(1) { Links.entries(blob, body) }
    }

    /// Ends the pass early.
    func done() {
        rows.done()
        then?.rows.done()
    }

    /// The author's mention id, when known (`.author`).
    var author: Int64? { at.author < 0 ? nil : rows.optionalInt64(at.author) }
    /// Seconds since 1970 UTC, when known (`.time`).
    var time: Int64? { at.time < 0 ? nil : rows.optionalInt64(at.time) }
    /// 0 original, 1 retweet, nil when ingested before schema version 4 (`.kind`).
    var kind: Int64? { at.kind < 0 ? nil : rows.optionalInt64(at.kind) }
    /// Its `lang` (`.lang`).
    var lang: String? { at.lang < 0 ? nil : rows.text(at.lang) }
    /// Its full text, when the store keeps texts (`.text`).
    var text: String? { at.text < 0 ? nil : rows.text(at.text) }
    /// The posts it retweets, quotes and replies to, when it does (`.references`): their ids' 64 bits.
    var retweetOf: Int64? { at.retweetOf < 0 ? nil : rows.optionalInt64(at.retweetOf) }
    var quoteOf: Int64? { at.quoteOf < 0 ? nil : rows.optionalInt64(at.quoteOf) }
    var replyTo: Int64? { at.replyTo < 0 ? nil : rows.optionalInt64(at.replyTo) }

    /// The terms the post matches (SPEC §2), its text prepared for word
    /// terms once per post, when a term first asks.
    @inline(__always)
    func mask(_ terms: StoredTerms) -> UInt64 {
        terms.mask(mentions: mentions, author: author) { text.map(WordMatch.prepare) }
    }

    /// The SPEC §12.2 verdict of `filter` on the post (`.time`, `.kind`, `.lang` as the filter needs).
    func judged(by filter: TweetFilter) -> TweetFilter.Verdict {
        filter.judgeStored(time: time, kind: kind, lang: filter.languages == nil ? nil : lang)
    }
}
