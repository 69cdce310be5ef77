/// Reports from the store alone (SPEC §10), byte for byte the reports a
/// stateless run over the same dumps gives: the store holds each tweet once
/// (its first copy) with the mention set `EntitiesExtractor` gave it.
///
///     tracked term ........ its kept counts (term_count): no scan at all
///     *  .................. every link, grouped by mention (the primary key's order)
///     #tag, @name ......... tweets from the mention's range of the primary key,
///     from:name, word ..... or from a scan of the tweets (author, text);
///                           then the mention sets of those tweets: one lookup each
///                           when they are few, one ordered scan of the links when many
extension Store {
    /// Why a term cannot be answered from this store: a usage error (exit 2).
    public struct TermNeedsText: Error, CustomStringConvertible {
        public var term: Term
        public var description: String {
            "the word term '\(term)' needs the tweets' text, and this store keeps none; "
                + "word terms work on a store started with `smashtag ingest --keep-text` (or report from the dumps themselves)"
        }
    }

    /// The reports of `terms`, in the order given.
    ///
    /// - Throws: `TermNeedsText` for a word term on a store without text
    ///   (checked before anything is read); `StoreError`.
    /// - Complexity: per untracked term, O(matching tweets × their mentions)
    ///   with point lookups, or one scan of all links when many tweets match;
    ///   memory O(distinct mentions).
    public func reports(_ terms: [Term], minCount: Int, top: Int?) throws -> [TermReport] {
        if !(try keepsText), let word = terms.first(where: { $0.kind == .word }) {
            throw TermNeedsText(term: word)
        }
        // One read transaction: every term sees the same committed state.
        try db.execute("BEGIN")
        defer { try? db.execute("COMMIT") }
        let kept = try keptTerms()
        var reports: [TermReport] = []
        for term in terms {
            let (tweets, counts) = if let id = kept[term] { try keptCounts(id) } else { try self.counts(of: term) }
            let keys = try mentionKeys(for: counts.filter { $0.value >= minCount }.map(\.key))
            reports.append(TermReport(term: term, tweets: tweets,
                                      counts: counts.lazy.compactMap { c in keys[c.key].map { ($0, c.value) } },
                                      minCount: minCount, top: top))
        }
        return reports
    }

    /// Distinct tweets matching `term` and, by mention id, how many of them carry each mention.
    func counts(of term: Term) throws(StoreError) -> (tweets: Int, counts: [Int64: Int]) {
        switch term.kind {
        case .all:
            var counts: [Int64: Int] = [:]
            let s = try db.statement("SELECT mention, count(*) FROM tweet_mention GROUP BY mention")
            while try s.step() { counts[s.int64(0)] = Int(s.int64(1)) }
            return (try tweetCount, counts)
        case .hashtag, .user:
            guard let id = try mentionID(term.mentionKey!) else { return (0, [:]) }
            var tweets: [Int64] = []
            let s = try db.statement("SELECT tweet FROM tweet_mention WHERE mention = ?1 ORDER BY tweet")
            try s.bind(1, id)
            while try s.step() { tweets.append(s.int64(0)) }
            return (tweets.count, try mentionCounts(ofSorted: tweets))
        case .author:
            guard let id = try mentionID(term.mentionKey!) else { return (0, [:]) }
            var tweets: [Int64] = []
            let s = try db.statement("SELECT id FROM tweet WHERE author = ?1 ORDER BY id")
            try s.bind(1, id)
            while try s.step() { tweets.append(s.int64(0)) }
            return (tweets.count, try mentionCounts(ofSorted: tweets))
        case .word:
            let word = WordMatch(term.key)
            var tweets: [Int64] = []
            let s = try db.statement("SELECT id, text FROM tweet WHERE text IS NOT NULL ORDER BY id")
            while try s.step() {
                if let text = s.text(1), word.matches(text) { tweets.append(s.int64(0)) }
            }
            return (tweets.count, try mentionCounts(ofSorted: tweets))
        }
    }

    /// How many of `tweets` (ascending ids) carry each mention.
    private func mentionCounts(ofSorted tweets: [Int64]) throws(StoreError) -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        guard !tweets.isEmpty else { return counts }
        // A lookup costs about as much as reading 8 links in order.
        let stored = try db.integer("SELECT count(*) FROM tweet") ?? 0
        if Int64(tweets.count) * 8 < stored {
            let s = try db.statement("SELECT mention FROM tweet_mention WHERE tweet = ?1")
            for id in tweets {
                s.reset()
                try s.bind(1, id)
                while try s.step() { counts[s.int64(0), default: 0] += 1 }
            }
            return counts
        }
        // Many tweets: walk every link in tweet order beside the sorted ids.
        let s = try db.statement("SELECT tweet, mention FROM tweet_mention INDEXED BY tweet_mention_by_tweet ORDER BY tweet")
        defer { s.done() }
        var i = 0
        while try s.step() {
            let tweet = s.int64(0)
            while i < tweets.count && tweets[i] < tweet { i += 1 }
            if i == tweets.count { break }
            if tweets[i] == tweet { counts[s.int64(1), default: 0] += 1 }
        }
        return counts
    }

    /// The store's id of a mention key, if the store has met it.
    func mentionID(_ key: String) throws(StoreError) -> Int64? {
        let s = try db.statement("SELECT id FROM mention WHERE key = ?1")
        try s.bind(1, key)
        return try s.first { $0.int64(0) }
    }

    /// The keys of mention ids: looked up one by one when few, else read all at once.
    func mentionKeys(for ids: [Int64]) throws(StoreError) -> [Int64: String] {
        var keys: [Int64: String] = [:]
        guard !ids.isEmpty else { return keys }
        let all = try db.integer("SELECT count(*) FROM mention") ?? 0
        if Int64(ids.count) * 8 < all {
            let s = try db.statement("SELECT key FROM mention WHERE id = ?1")
            for id in ids {
                s.reset()
                try s.bind(1, id)
                if let key = try s.first({ $0.text(0) }) ?? nil { keys[id] = key }
            }
        } else {
            let wanted = Set(ids)
            let s = try db.statement("SELECT id, key FROM mention")
            while try s.step() {
                if wanted.contains(s.int64(0)) { keys[s.int64(0)] = s.text(1) }
            }
        }
        return keys
    }
}
