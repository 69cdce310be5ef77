/// The one stored-post cursor: a pass over the store's posts in id order,
/// each with its mention set (its row's links, `Links`) and, as asked, its
/// author, creation time, kind, language, text and written spellings. Every
/// store scan that looks at posts one by one walks it — the pairs
/// (`PairScan`), a report with filters, columns or `--by`
/// (`Store.scan`), a word term's report (`TermScan`) — and matches a post
/// against the terms in one place (`mask`, through `StoredTerms`).
///
/// (A report of `#tag`, `@name`, `from:` and `*` terms alone reads no post
/// whole: SQLite hands `LinkGrouper` the links one by one, the store's
/// fastest path.)
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
        /// Each link's spelling, besides the mention set (`written`).
        static let spellings = Columns(rawValue: 1 << 5)
        /// The retweeted, quoted and replied-to posts (SPEC §15, schema v7).
        static let references = Columns(rawValue: 1 << 6)
    }

    private let rows: Statement
    private let columns: Columns
    private let upper: Int64
    /// The post's id.
    private(set) var id: Int64 = 0
    /// Its distinct mention ids, in the links' order (sorted by id).
    private(set) var mentions: [Int64] = []
    /// Every link with its spelling and whether it repeats a mention (`.spellings` only).
    private(set) var written: [(mention: Int64, spelling: Links.Spelling, again: Bool)] = []

    /// A cursor over the posts with ids in `range` (all when nil).
    init(_ db: Database, columns: Columns, range: ClosedRange<Int64>? = nil) throws(StoreError) {
        self.columns = columns
        func column(_ c: Columns, _ name: String) -> String { columns.contains(c) ? name : "NULL" }
        rows = try db.statement("SELECT id, links, \(column(.author, "author")), \(column(.time, "created_at")), "
                                + "\(column(.kind, "retweet")), \(column(.lang, "lang")), \(column(.text, "text")), "
                                + "\(column(.references, "retweet_of")), \(column(.references, "quote_of")), "
                                + "\(column(.references, "reply_to")) FROM tweet WHERE id >= ?1")
        // Scans start at the lower bound and stop past the upper one here, which costs SQLite no compare per row.
        try rows.bind(1, range?.lowerBound ?? Int64.min)
        upper = range?.upperBound ?? Int64.max
    }

    /// Moves to the next post; false past the last (the statement is then done).
    mutating func next() throws(StoreError) -> Bool {
        guard try rows.step() else { rows.done(); return false }
        id = rows.int64(0)
        guard id <= upper else { rows.done(); return false }
        mentions.removeAll(keepingCapacity: true)
        guard let blob = rows.blob(1) else {
            written.removeAll(keepingCapacity: true)
            return true
        }
        if columns.contains(.spellings) {
            written.removeAll(keepingCapacity: true)
            Links.entries(blob) { m, spelling, again in
                if !again { mentions.append(m) }
                written.append((m, spelling, again))
            }
        } else {
            Links.mentions(blob) { mentions.append($0) }
        }
        return true
    }

    /// Ends the pass early.
    func done() { rows.done() }

    /// The author's mention id, when known (`.author`).
    var author: Int64? { rows.optionalInt64(2) }
    /// Seconds since 1970 UTC, when known (`.time`).
    var time: Int64? { rows.optionalInt64(3) }
    /// 0 original, 1 retweet, nil when ingested before schema version 4 (`.kind`).
    var kind: Int64? { rows.optionalInt64(4) }
    /// Its `lang` (`.lang`).
    var lang: String? { rows.text(5) }
    /// Its full text, when the store keeps texts (`.text`).
    var text: String? { rows.text(6) }
    /// The posts it retweets, quotes and replies to, when it does (`.references`): their ids' 64 bits.
    var retweetOf: Int64? { rows.optionalInt64(7) }
    var quoteOf: Int64? { rows.optionalInt64(8) }
    var replyTo: Int64? { rows.optionalInt64(9) }

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
