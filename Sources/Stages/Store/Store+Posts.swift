/// `smashtag posts --store` (SPEC §15): the posts the matching tweets
/// retweet, quote and reply to, from the store alone, byte for byte those
/// of a stateless run over the same dumps.
///
///     tweet (id order) ─▶ filter, match ─▶ PostsAggregator (per term: X → retweets, quotes, replies)
///     the Xs written ─▶ tweet (X's own row: author, created_at, text) and post_copy (the first copies ingested)
///
/// The store holds each tweet once (its first copy) with its references
/// (schema v7), and for each post some tweet embeds a copy of, what the
/// first copies ingested said of it: the aggregator then resolves an X
/// exactly as from the dumps (its own record first, then the copies).
extension Store {
    /// Why `posts` cannot be answered from this store: a usage error (exit 2).
    public struct ReferencesNotKept: Error, CustomStringConvertible {
        /// The tweets stored before the store kept references, or nil when it is texts that are missing.
        public var tweets: Int?
        public var path: String

        public var description: String {
            guard let tweets else {
                return "--columns text needs the posts' texts, and the store \(path) keeps none: "
                    + "ingest with --keep-text into a new store, or ask the dumps themselves"
            }
            return "the store \(path) holds \(tweets) tweets ingested before smashtag kept what a tweet retweets, quotes "
                + "and replies to (schema version 6 or older), so `posts` (SPEC §15) would leave them out: ingest the "
                + "dumps into a new store (smashtag ingest PATH... --store NEW.db) and ask that, or ask the dumps themselves"
        }
    }

    /// The posts of `terms`, in the order given, from one read transaction.
    ///
    /// - Parameter texts: each post's text (`--columns text`): needs a store kept with `--keep-text`.
    /// - Throws: `TermNeedsText`, `KindsNotKept`, `ReferencesNotKept` (checked before anything is read); `StoreError`.
    /// - Complexity: one pass over the tweets; then a lookup per post written.
    public func posts(_ terms: [Term], minCount: Int, top: Int?, filter: TweetFilter = TweetFilter(),
                      texts: Bool = false) throws -> [TermPosts] {
        let keeps = try keepsText
        if !keeps, let word = terms.first(where: { $0.kind == .word }) { throw TermNeedsText(term: word) }
        if texts && !keeps { throw ReferencesNotKept(tweets: nil, path: path) }
        try checkKinds([], terms: terms)
        if let old = try setting(Schema.withoutReferencesSetting).flatMap({ Int($0) }), old > 0 {
            throw ReferencesNotKept(tweets: old, path: path)
        }
        try db.beginRead()
        defer { db.endRead() }
        // Bluesky authors are shown by handle (SPEC §16), as a report of the dumps shows them.
        try loadHandles()
        var targets: [StoredTerm] = []
        for term in terms { targets.append(try storedTerm(term)) }
        let stored = StoredTerms(targets)
        let aggregator = PostsAggregator(terms: terms, texts: texts)
        var columns: StoredPosts.Columns = [.author, .time, .kind, .lang, .references]
        if stored.needsText { columns.insert(.text) }
        // With --since/--until, their range alone is read (the rest would be left out).
        var posts = try self.posts(columns: columns, keptBy: filter)
        defer { posts.done() }
        let identities = StoredIdentities(db)
        func number(_ stored: Int64?) throws(StoreError) -> UInt64 {
            guard let stored else { return PostPart.noPost }
            return try identities.number(stored)
        }
        while try posts.next() {
            if filter.isActive, posts.judged(by: filter) != .kept { continue }
            var mask = posts.mask(stored)
            guard mask != 0 else { continue }
            let (rt, q, r) = (try number(posts.retweetOf), try number(posts.quoteOf), try number(posts.replyTo))
            while mask != 0 {
                let t = mask.trailingZeroBitCount
                mask &= mask - 1
                aggregator.add(counted: 1, term: t)
                aggregator.add(retweetOf: rt, quoteOf: q, replyTo: r, term: t)
            }
        }
        // What is said of the posts written: their own rows, then their copies.
        let chosen = aggregator.chosenPosts(minCount: minCount, top: top)
        var said: [(post: UInt64, own: Bool, author: Int64?, time: Int64?, text: String?)] = []
        let own = try db.statement("SELECT author, created_at, \(texts ? "text" : "NULL") FROM tweet WHERE id = ?1")
        let copy = try db.statement("SELECT author, created_at, \(texts ? "text" : "NULL") FROM post_copy WHERE post = ?1")
        for x in chosen {
            guard let id = try identities.existingID(of: x) else { continue }
            for (statement, isOwn) in [(own, true), (copy, false)] {
                statement.reset()
                try statement.bind(1, id)
                if try statement.step() {
                    said.append((x, isOwn, statement.optionalInt64(0), statement.optionalInt64(1), statement.text(2)))
                }
                statement.done()
            }
        }
        let keys = try mentionKeys(for: Array(Set(said.compactMap(\.author))))
        for s in said {
            aggregator.addCopy(of: s.post, own: s.own, author: s.author.flatMap { keys[$0] }, time: s.time, text: s.text)
        }
        return aggregator.posts(minCount: minCount, top: top)
    }
}
