/// Counts the reports of many terms in one pass over the store, in tweet id
/// order: the links (`tweet_mention`, whose primary key starts with the
/// tweet) give each tweet's mention set; the tweets themselves are read
/// beside them only when a term needs an author (`from:`) or text (a word).
///
///     tweet_mention  (1,#a) (1,@b) (2,#a) (4,#c) …   ─┐ grouped by tweet
///     tweet          1:author,text  2:…  3:…  4:…   ─┘ merged on id (when needed)
///                                   ▼
///     per term: matching tweets, count per mention id
///
/// A scan covers a range of tweet ids, so a report can split the store
/// between threads (each with its own connection) and add the parts up.
///
/// - Complexity: O(links + tweets read) time; memory O(terms × distinct
///   mentions) for the counts.
struct TermScan {
    /// A term as the scan matches it.
    struct Target {
        var term: Term
        /// The store's id of the term's mention key (`#tag`, `@name`, `from:` → `@name`);
        /// nil when the store never met it (nothing can match then).
        var mention: Int64?
        var word: WordMatch?
    }

    /// What one term counted.
    struct Counts {
        var tweets = 0
        var mentions: [Int64: Int] = [:]

        mutating func add(_ other: Counts) {
            tweets += other.tweets
            mentions.merge(other.mentions, uniquingKeysWith: +)
        }
    }

    var targets: [Target]

    init(_ targets: [Target]) { self.targets = targets }

    private var needsTweets: Bool { targets.contains { $0.term.kind == .author || $0.term.kind == .word || $0.term.kind == .all } }
    private var needsText: Bool { targets.contains { $0.term.kind == .word } }

    /// Counts over the tweets with ids in `range` (all when nil).
    func run(_ db: Database, range: ClosedRange<Int64>? = nil) throws(StoreError) -> [Counts] {
        var counts = [Counts](repeating: Counts(), count: targets.count)
        let (lo, hi) = (range?.lowerBound ?? Int64.min, range?.upperBound ?? Int64.max)
        let links = try db.statement("SELECT tweet, mention FROM tweet_mention WHERE tweet BETWEEN ?1 AND ?2")
        defer { links.done() }
        try links.bind(1, lo)
        try links.bind(2, hi)
        var set: [Int64] = []
        // The link the scan stands on (read once: every column read is a call into SQLite).
        var linkReady = try links.step()
        var link = linkReady ? (tweet: links.int64(0), mention: links.int64(1)) : (tweet: 0, mention: 0)
        func nextLink() throws(StoreError) {
            linkReady = try links.step()
            if linkReady { link = (links.int64(0), links.int64(1)) }
        }

        if needsTweets {
            let sql = needsText ? "SELECT id, author, text FROM tweet WHERE id BETWEEN ?1 AND ?2"
                                : "SELECT id, author FROM tweet WHERE id BETWEEN ?1 AND ?2"
            let tweets = try db.statement(sql)
            defer { tweets.done() }
            try tweets.bind(1, lo)
            try tweets.bind(2, hi)
            while try tweets.step() {
                let id = tweets.int64(0)
                set.removeAll(keepingCapacity: true)
                while linkReady && link.tweet < id { try nextLink() }
                while linkReady && link.tweet == id {
                    set.append(link.mention)
                    try nextLink()
                }
                add(set, author: tweets.optionalInt64(1), text: needsText ? tweets.text(2) : nil, to: &counts)
            }
        } else {
            // Only #tag and @name terms: a tweet without links matches none of them.
            while linkReady {
                let id = link.tweet
                set.removeAll(keepingCapacity: true)
                while linkReady && link.tweet == id {
                    set.append(link.mention)
                    try nextLink()
                }
                add(set, author: nil, text: nil, to: &counts)
            }
        }
        return counts
    }

    @inline(__always)
    private func add(_ set: [Int64], author: Int64?, text: String?, to counts: inout [Counts]) {
        var prepared: [Unicode.Scalar]?
        for (t, target) in targets.enumerated() {
            let hit: Bool
            switch target.term.kind {
            case .all: hit = true
            case .hashtag, .user: hit = target.mention.map(set.contains) ?? false
            case .author: hit = target.mention != nil && author == target.mention
            case .word:
                guard let text else { hit = false; break }
                if prepared == nil { prepared = WordMatch.prepare(text) }
                hit = target.word!.matches(prepared: prepared!)
            }
            guard hit else { continue }
            counts[t].tweets += 1
            for m in set { counts[t].mentions[m, default: 0] += 1 }
        }
    }
}
