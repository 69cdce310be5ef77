/// Series over time from the store alone (SPEC §12.4, `report --store --by`):
/// the store keeps each tweet's creation time (`tweet.created_at`, SPEC
/// §12.1, as a dump read gives it), so tweets are bucketed at query time
/// and the series is byte for byte the one a run over the same dumps gives.
///
///     tweet   1:created_at,author,kind,lang,links[,text]  2:…  3:…
///             links: (#a as #A) (@b) … in the row (`Links`)
///                                   ▼
///     per matching tweet of known time: the `Aggregator` with buckets
///
/// The scan is the one of `report --store` with SPEC §12.2's filters and
/// §12.3's columns (`Store+Facts.swift`), each tweet with its creation time,
/// so each bucket's `display`, `originals`, `retweets` and `authors` are
/// counted over that bucket's tweets by the dumps' own aggregator. Kept
/// counts of tracked terms hold no times, so every term is scanned.
extension Store {
    /// A series and what was left out for want of a time.
    public struct Series {
        /// One report per term and bucket, as `Aggregator.seriesReports` gives them.
        public var reports: [TermReport]
        /// Each term's report over the whole period (for the run summary).
        public var totals: [TermReport]
        /// Stored tweets of unknown creation time, left out.
        public var unknownTime: Int
        /// Matching tweets ingested before schema version 4 (no kind, language or spellings).
        public var unknownFacts: Int
    }

    /// The series of `terms` in `buckets`, in the order given.
    ///
    /// - Parameters:
    ///   - filter: SPEC §12.2's filters; its `--since`/`--until` leave out
    ///     the tweets outside them, and the series spans their buckets.
    ///   - facts: what SPEC §12.3's columns need, counted per bucket (`ReportColumns.facts`).
    /// - Throws: `TermNeedsText` for a word term on a store without text; `SeriesTooLong`; `StoreError`.
    /// - Complexity: one pass over the tweets and the links, in id order;
    ///   memory O(distinct mentions) for their keys, plus the aggregator's.
    public func series(_ terms: [Term], buckets: TimeBuckets, minCount: Int, top: Int?,
                       filter: TweetFilter = TweetFilter(), facts: PostFields = PostFields()) throws -> Series {
        let aggregator = Aggregator(terms: terms, facts: facts, buckets: buckets)
        let scanned = try scan(terms, filter: filter, into: aggregator)
        return Series(reports: try aggregator.seriesReports(minCount: minCount, top: top, since: filter.since, until: filter.until),
                      totals: aggregator.reports(minCount: minCount, top: top), unknownTime: scanned.unknownTime,
                      unknownFacts: scanned.unknownFacts)
    }
}
