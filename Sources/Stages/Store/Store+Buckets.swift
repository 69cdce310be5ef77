/// Series over time from the store alone (SPEC §12.4, `report --store --by`):
/// the store keeps each tweet's creation time (`tweet.created_at`, SPEC
/// §12.1, as a dump read gives it), so tweets are bucketed at query time
/// and the series is byte for byte the one a run over the same dumps gives.
///
///     tweet          1:created_at,author[,text],[#a,@b]  2:…  3:…
///                                   ▼
///     per matching tweet of known time: the `Aggregator` with buckets
///
/// Kept counts of tracked terms hold no times, so every term is scanned.
extension Store {
    /// A series and what was left out for want of a time.
    public struct Series {
        /// One report per term and bucket, as `Aggregator.seriesReports` gives them.
        public var reports: [TermReport]
        /// Each term's report over the whole period (for the run summary).
        public var totals: [TermReport]
        /// Stored tweets of unknown creation time, left out.
        public var unknownTime: Int
    }

    /// The series of `terms` in `buckets`, in the order given.
    ///
    /// - Parameters:
    ///   - since, until: `--since`/`--until` (seconds, `until` exclusive):
    ///     tweets outside are left out, and the series spans their buckets.
    /// - Throws: `TermNeedsText` for a word term on a store without text; `StoreError`.
    /// - Complexity: one pass over the tweets and the links, in id order;
    ///   memory O(distinct mentions) for their keys, plus the aggregator's.
    public func series(_ terms: [Term], buckets: TimeBuckets, minCount: Int, top: Int?,
                       since: Int64? = nil, until: Int64? = nil, filter: TweetFilter = TweetFilter()) throws -> Series {
        let withText = terms.contains { $0.kind == .word }
        if withText, !(try keepsText), let word = terms.first(where: { $0.kind == .word }) {
            throw TermNeedsText(term: word)
        }
        try db.beginRead()
        defer { db.endRead() }
        var targets: [StoredTerm] = []
        for term in terms { targets.append(StoredTerm(term, mention: try term.mentionKey.flatMap(mentionID))) }
        var keys: [Int64: String] = [:]
        let all = try db.statement("SELECT id, key FROM mention")
        while try all.step() { keys[all.int64(0)] = all.text(1) }
        all.done()

        let aggregator = Aggregator(terms: terms, buckets: buckets)
        var unknown = 0
        let tweets = try db.statement("SELECT id, created_at, author, \(withText ? "text" : "NULL"), retweet, lang, links FROM tweet WHERE id >= ?1")
        defer { tweets.done() }
        try tweets.bind(1, Int64.min)
        var set: [Int64] = []
        var mentions: [String] = []
        while try tweets.step() {
            let id = tweets.int64(0)
            Links.mentions(tweets.blob(6), into: &set)
            guard let time = tweets.optionalInt64(1) else { unknown += 1; continue }
            if let since, time < since { continue }
            if let until, time >= until { continue }
            // SPEC §12.2's other filters, judged as the report's scan judges them.
            if filter.retweets != .include || filter.languages != nil,
               filter.judgeStored(time: time, kind: tweets.optionalInt64(4),
                                  lang: filter.languages == nil ? nil : tweets.text(5)) != .kept {
                continue
            }
            let author = tweets.optionalInt64(2)
            var prepared: [Unicode.Scalar]?
            var mentionsReady = false
            for (t, target) in targets.enumerated() {
                let hit = target.matches(carries: set.contains, author: author) {
                    if prepared == nil, let text = tweets.text(3) { prepared = WordMatch.prepare(text) }
                    return prepared
                }
                guard hit else { continue }
                if !mentionsReady {
                    mentions = set.compactMap { keys[$0] }
                    mentionsReady = true
                }
                aggregator.add(tweet: UInt64(bitPattern: id), term: t, mentions: mentions, time: time)
            }
        }
        return Series(reports: aggregator.seriesReports(minCount: minCount, top: top, since: since, until: until),
                      totals: aggregator.reports(minCount: minCount, top: top), unknownTime: unknown)
    }
}
