/// `smashtag trend --store` (SPEC §14) from the store alone: the store
/// keeps each tweet's creation time, author, kind and spellings, so the
/// one pass of `report --store` with filters (`Store+Facts.swift`) hands
/// each matching tweet to the dumps' own `TrendAggregator`, and the rows
/// are byte for byte those a run over the same dumps gives.
///
///     tweet (id order) ─▶ filter (time known, --retweets, --lang, …) ─▶ match ─▶ PostPart ─▶ TrendAggregator
extension Store {
    /// Hands every stored tweet that `filter` keeps and that matches one of
    /// `terms` to `trend`, with its creation time, author and spellings.
    ///
    /// - Returns: what was read and left out (`reports` empty).
    /// - Throws: `TermNeedsText` for a word term on a store without text; `StoreError`.
    /// - Complexity: one pass over the tweets and their links; memory as the aggregator's.
    public func scan(_ terms: [Term], filter: TweetFilter, into trend: TrendAggregator) throws -> FilteredReports {
        try scan(terms, filter: filter, into: trend, facts: TrendAggregator.fields(kinds: trend.kinds), times: true)
    }
}
