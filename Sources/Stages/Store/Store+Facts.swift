/// Reports from the store with the options of SPEC §12.2 and §12.3 — the
/// filters and the extra columns — byte for byte what the same options give
/// from the dumps: the store keeps each tweet's creation time, kind,
/// language, author and the spellings of its mentions (schema v4).
///
///     tweet (id order, its links and their spellings in the row)
///         ─▶ filter: time, kind, language ─▶ match ─▶ PostPart ─▶ Aggregator
///
/// One pass over the tweets and their links in id order, matched like
/// `TermScan` (`StoredTerm`), handed to the report's own `Aggregator` in
/// chunks, so counting, `display`, ties and rendering are the dumps' own.
/// Tracked terms' kept counts are not used: they hold every tweet. With
/// `--by`, `series` (`Store+Buckets.swift`) runs the same scan into an
/// aggregator with buckets, each tweet with its creation time.
///
/// A store upgraded from version 3 holds tweets whose kind, language and
/// spellings were never kept (`retweet` is NULL): they have no language (so
/// `--lang` never keeps them), `--retweets exclude|only` leaves them out,
/// and they add to `count` and `authors` but to neither `originals` nor
/// `retweets`, and no spelling to `display`. `unknownFacts` says how many
/// such tweets a report counted, for the caller to say so.
extension Store {
    /// A report with filters or columns, and what the filters left out.
    public struct FilteredReports {
        public var reports: [TermReport]
        /// Tweets the filters left out, of unknown time among them.
        public var leftOut = 0
        public var unknownTime = 0
        /// Tweets kept that were ingested before schema version 4.
        public var unknownFacts = 0
        /// Tweets read.
        public var tweets = 0
    }

    /// The reports of `terms` with `filter` and what the columns need (`facts`), in the order given.
    ///
    /// - Throws: `TermNeedsText` for a word term on a store without text; `StoreError`.
    /// - Complexity: one pass over the tweets and the links; memory as the
    ///   dumps' `Aggregator`, plus the store's mention keys and spellings.
    public func reports(_ terms: [Term], minCount: Int, top: Int?, filter: TweetFilter,
                        facts: PostFields) throws -> FilteredReports {
        let aggregator = Aggregator(terms: terms, facts: facts)
        var result = try scan(terms, filter: filter, into: aggregator)
        result.reports = aggregator.reports(minCount: minCount, top: top)
        return result
    }

    /// Every stored tweet that `filter` keeps, matched against `terms` and
    /// handed to `aggregator` with what its facts ask for; with the
    /// aggregator's buckets (`--by`), with its creation time, tweets of
    /// unknown time left out (and counted in `unknownTime`).
    ///
    /// - Returns: what was left out and read (`reports` empty).
    func scan(_ terms: [Term], filter: TweetFilter, into aggregator: Aggregator) throws -> FilteredReports {
        try scan(terms, filter: filter, into: aggregator, facts: aggregator.facts, times: aggregator.buckets != nil)
    }

    /// The same scan into any sink of parts: each post with what `facts`
    /// asks for and, with `times`, its creation time (tweets of unknown
    /// time then left out and counted in `unknownTime`).
    /// With `span`, only the posts created in it are read (`StoredPosts(_:columns:span:)`).
    func scan(_ terms: [Term], filter: TweetFilter, into aggregator: PartSink, facts: PostFields, times bucketed: Bool,
              span: (start: Int64, end: Int64)? = nil) throws -> FilteredReports {
        let text = try keepsText
        if !text, let word = terms.first(where: { $0.kind == .word }) {
            throw TermNeedsText(term: word)
        }
        try checkKinds(facts.mentionKinds, terms: terms)
        try loadHandles()
        try db.beginRead()
        defer { db.endRead() }
        var keys: [Int64: String] = [:]
        let allKeys = try db.statement("SELECT id, key FROM mention")
        while try allKeys.step() { if let k = allKeys.text(1) { keys[allKeys.int64(0)] = k } }
        allKeys.done()
        var spellings: [Int64: String] = [:]
        if facts.spellings {
            let allSpellings = try db.statement("SELECT id, text FROM spelling")
            while try allSpellings.step() { if let s = allSpellings.text(1) { spellings[allSpellings.int64(0)] = s } }
            allSpellings.done()
        }
        // Spellings that are capitals of their key, as made once each.
        struct Cased: Hashable { var mention: Int64, mask: UInt64 }
        var cased: [Cased: String] = [:]
        var stored: [StoredTerm] = []
        for term in terms { stored.append(try storedTerm(term)) }
        let targets = StoredTerms(stored)
        let counted = try countedMentions(facts.mentionKinds)
        var kept: [Int64] = []

        var result = FilteredReports(reports: [])
        var fields = facts
        fields.times = bucketed
        var chunk = PartBuilder<KeyedNumbering<Int64>>(fields: fields)
        var columns: StoredPosts.Columns = [.author, .time, .kind, .lang, .spellings]
        if text { columns.insert(.text) }
        var posts = try span.map { span throws(StoreError) in try StoredPosts(db, columns: columns, span: span) }
            ?? StoredPosts(db, columns: columns)
        defer { posts.done() }
        let identities = StoredIdentities(db)
        while try posts.next() {
            let id = posts.id
            let written = posts.written
            result.tweets += 1
            let time = posts.time, kind = posts.kind
            // With --by, a tweet of unknown time is left out before matching (SPEC §12.4).
            if bucketed && time == nil { result.leftOut += 1; result.unknownTime += 1; continue }
            switch posts.judged(by: filter) {
            case .kept: break
            case .leftOut: result.leftOut += 1; continue
            case .unknownTime: result.leftOut += 1; result.unknownTime += 1; continue
            }
            let author = posts.author
            let mask = posts.mask(targets)
            guard mask != 0 else { continue }
            if kind == nil { result.unknownFacts += 1 }
            var pairs: [(mention: Int64, spelling: String)] = []
            if facts.spellings && kind != nil {
                for (m, s, again) in written {
                    guard let key = keys[m] else { continue }
                    switch s {
                    case .key: pairs.append((m, key))
                    case .cased(let capitals):
                        let c = Cased(mention: m, mask: capitals)
                        if let known = cased[c] { pairs.append((m, known)) } else {
                            let made = Links.cased(key, capitals)
                            cased[c] = made
                            pairs.append((m, made))
                        }
                    case .stored(let id):
                        if let text = spellings[id] { pairs.append((m, text)) } else if !again { pairs.append((m, key)) }
                    }
                }
            }
            // The kinds the report counts (`--kinds`): the others are in the links too (schema v6).
            let set = counted.filter(posts.mentions, into: &kept)
            chunk.append(id: try identities.number(id), mask: mask, mentions: set, text: { keys[$0] }, retweet: kind == 1,
                         author: author, unknown: kind == nil, spellings: pairs, time: time)
            if chunk.count >= 50_000 { aggregator.add(chunk.take()) }
        }
        aggregator.add(chunk.take())
        return result
    }
}

extension TweetFilter {
    /// SPEC §12.2 on a stored tweet's creation time, kind (0 original, 1
    /// retweet, nil when ingested before schema version 4) and language, as
    /// `judge` does on a decoded tweet: time first.
    func judgeStored(time: Int64?, kind: Int64?, lang: String?) -> Verdict {
        if byTime {
            guard let t = time else { return .unknownTime }
            if let since, t < since { return .leftOut }
            if let until, t >= until { return .leftOut }
        }
        if retweets != .include {
            guard let kind, (kind != 0) == (retweets == .only) else { return .leftOut }
        }
        if let codes = languages {
            guard let lang, !lang.isEmpty, TweetFilter.anyLanguage(lang, in: codes) else { return .leftOut }
        }
        return .kept
    }
}
