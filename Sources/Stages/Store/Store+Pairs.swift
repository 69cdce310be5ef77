/// `smashtag pairs --store` (SPEC §12.5): the pairs of terms from the store
/// alone, byte for byte those of a stateless run over the same dumps (the
/// store holds each tweet once, with the mention set a run extracts).
///
///     tweet          1:author,text,[#a,@b]  2:…  3:…   (in id order, links in the row)
///                              ▼
///     per term: matching tweets, count per mention, weight per pair of mention ids
extension Store {
    /// The pairs of `terms`, in the order given, from one read transaction.
    ///
    /// - Parameter maxMentions: a stored tweet carrying more distinct
    ///   mentions adds no pairs (SPEC §12.5); such matching tweets are
    ///   returned in `overLimit`, by id.
    /// - Throws: `TermNeedsText` for a word term on a store without text;
    ///   `StoreError`.
    /// - Complexity: one pass over the tweets and their links; memory
    ///   O(terms × (distinct mentions + distinct pairs)).
    public func pairs(_ terms: [Term], minCount: Int, top: Int?, withoutTerm: Bool, filter: TweetFilter = TweetFilter(),
                      kinds: MentionKinds = .standard,
                      maxMentions: Int = OverLimitTweets.defaultLimit) throws -> (pairs: [TermPairs], overLimit: OverLimitTweets) {
        if !(try keepsText), let word = terms.first(where: { $0.kind == .word }) {
            throw TermNeedsText(term: word)
        }
        try checkKinds(kinds, terms: terms)
        try loadHandles()
        try db.beginRead()
        defer { db.endRead() }
        var targets: [StoredTerm] = []
        for term in terms {
            targets.append(try storedTerm(term))
        }
        var scan = PairScan(targets)
        scan.filter = filter
        scan.span = try range(of: filter)
        scan.counted = try countedMentions(kinds)
        scan.overLimit = OverLimitTweets(limit: maxMentions)
        let tallies = try scan.run(db)
        var wanted = Set<Int64>()
        for tally in tallies {
            for (key, weight) in tally.weights where weight >= minCount {
                let (a, b) = PairScan.split(key)
                wanted.insert(a)
                wanted.insert(b)
            }
        }
        // The keys of the pairs' mentions, and each store id's index among them.
        let stored = try mentionKeys(for: Array(wanted))
        let ids = Array(stored.keys)
        let keys = ids.map { stored[$0]! }
        var index: [Int64: Int] = [:]
        for (i, id) in ids.enumerated() { index[id] = i }
        let pairs = zip(terms, tallies).map { term, tally in
            let weights = tally.weights.lazy.compactMap { key, weight -> (Int, Int, Int)? in
                guard weight >= minCount else { return nil }
                let (a, b) = PairScan.split(key)
                guard let x = index[a], let y = index[b] else { return nil }
                return (x, y, Int(weight))
            }
            return TermPairs(term: term, tweets: tally.tweets, keys: keys, weights: weights,
                             count: { tally.mentions[ids[$0]] ?? 0 },
                             minCount: minCount, top: top, withoutTerm: withoutTerm)
        }
        return (pairs, scan.overLimit)
    }
}

/// One pass over the stored tweets in id order, with their links beside
/// them, counting for each term its tweets, its mentions and its pairs of
/// mention ids. With `--since`/`--until`, over their range alone
/// (`Store.range(of:)`): the posts dated apart from their ids by time, then
/// the tweets in id order.
struct PairScan {
    struct Tally {
        var tweets = 0
        var mentions: [Int64: Int] = [:]
        /// Pair of mention ids (`key`) → weight.
        var weights: [UInt64: Int32] = [:]
    }

    let terms: StoredTerms
    /// SPEC §12.2's filters, judged on each stored tweet before it is matched.
    var filter = TweetFilter()
    /// The span the filter's range keeps, read alone; nil: every post.
    var span: (start: Int64, end: Int64)?
    /// `--max-pair-mentions`, and the matching tweets over it the scan met (by id).
    var overLimit = OverLimitTweets()
    /// The kinds paired (`--kinds`): the links hold every kind (schema v6).
    var counted = CountedMentions(ids: nil)

    init(_ targets: [StoredTerm]) { terms = StoredTerms(targets) }

    /// The key of an unordered pair of mention ids (each below 2³²: a
    /// store's ids count up from 1).
    static func key(_ a: Int64, _ b: Int64) -> UInt64 {
        let (lo, hi) = a < b ? (a, b) : (b, a)
        return UInt64(truncatingIfNeeded: lo) << 32 | UInt64(truncatingIfNeeded: hi) & 0xFFFF_FFFF
    }

    static func split(_ key: UInt64) -> (Int64, Int64) { (Int64(key >> 32), Int64(key & 0xFFFF_FFFF)) }

    mutating func run(_ db: Database) throws(StoreError) -> [Tally] {
        var tallies = Array(repeating: Tally(), count: terms.targets.count)
        if let highest = try db.integer("SELECT max(id) FROM mention"), highest > Int64(UInt32.max) {
            throw StoreError(.other, path: db.path, "cannot count pairs: mention ids beyond 2^32 in this store")
        }
        let columns: StoredPosts.Columns = terms.needsText ? [.author, .time, .kind, .lang, .text] : [.author, .time, .kind, .lang]
        var posts: StoredPosts
        if let span { posts = try StoredPosts(db, columns: columns, span: span) } else { posts = try StoredPosts(db, columns: columns) }
        defer { posts.done() }
        var kept: [Int64] = []
        var over: [(row: Int64, tweet: OverLimitTweet)] = []
        let identities = StoredIdentities(db)
        while try posts.next() {
            if filter.isActive, posts.judged(by: filter) != .kept { continue }
            let set = counted.filter(posts.mentions, into: &kept)
            let pairsAdded = set.count <= overLimit.limit
            var noted = false
            var mask = posts.mask(terms)
            while mask != 0 {
                let t = mask.trailingZeroBitCount
                mask &= mask - 1
                tallies[t].tweets += 1
                for m in set { tallies[t].mentions[m, default: 0] += 1 }
                if !pairsAdded, !noted {
                    over.append((posts.id, OverLimitTweet(id: try identities.number(posts.id), mentions: set.count)))
                    noted = true
                }
                guard set.count >= 2, pairsAdded else { continue }
                for a in 0..<(set.count - 1) {
                    for b in (a + 1)..<set.count { tallies[t].weights[PairScan.key(set[a], set[b]), default: 0] += 1 }
                }
            }
        }
        // Noted in the store's order, by row id, however the range was read (the first few are named).
        for (_, tweet) in over.sorted(by: { $0.row < $1.row }) { overLimit.note(tweet) }
        return tallies
    }
}
