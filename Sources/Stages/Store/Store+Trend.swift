/// `smashtag trend --store` (SPEC §14) from the store alone: the store
/// keeps each tweet's creation time, author, kind and spellings, so the
/// one pass of `report --store` with filters (`Store+Facts.swift`) hands
/// each matching tweet to the dumps' own `TrendAggregator`, and the rows
/// are byte for byte those a run over the same dumps gives.
///
/// Only the posts created in the windows' span are read (schema v8: tweets
/// by the id range of its seconds, other posts by the partial index of
/// their times), so a trend costs what its windows hold, not the store.
///
///     tweet (in the span) ─▶ filter (time known, --retweets, --lang, …) ─▶ match ─▶ PostPart ─▶ TrendAggregator
extension Store {
    /// Hands every stored tweet that `filter` keeps and that matches one of
    /// `terms` to `trend`, with its creation time, author and spellings.
    ///
    /// - Returns: what was read and left out (`reports` empty).
    /// - Throws: `TermNeedsText` for a word term on a store without text; `StoreError`.
    /// - Complexity: one pass over the posts of the windows' span and their links; memory as the aggregator's.
    public func scan(_ terms: [Term], filter: TweetFilter, into trend: TrendAggregator) throws -> FilteredReports {
        try scan(terms, filter: filter, into: trend, facts: TrendAggregator.fields(kinds: trend.kinds), times: true,
                 span: (trend.span.start, trend.span.end))
    }

    /// The creation times of the store's oldest and newest posts of known
    /// time, nil for a store without one: four look-ups (each end of the
    /// snowflake ids, each end of the partial index of other times).
    public func postTimes() throws(StoreError) -> (oldest: Int64, newest: Int64)? {
        try db.beginRead()
        defer { db.endRead() }
        return try knownTimes()
    }

    /// `postTimes` in the caller's transaction.
    func knownTimes() throws(StoreError) -> (oldest: Int64, newest: Int64)? {
        var times: [Int64] = []
        for order in ["ASC", "DESC"] {
            let tweet = try db.statement("SELECT created_at FROM tweet WHERE id >= \(CreatedAt.firstSnowflake) AND created_delta IS 0 "
                                         + "ORDER BY id \(order) LIMIT 1")
            if try tweet.step(), let t = tweet.optionalInt64(0) { times.append(t) }
            tweet.done()
            let other = try db.statement("SELECT created_at FROM tweet INDEXED BY \(Schema.offSnowflakeIndex) WHERE \(Schema.offSnowflake) "
                                         + "AND created_at IS NOT NULL ORDER BY created_at \(order) LIMIT 1")
            if try other.step(), let t = other.optionalInt64(0) { times.append(t) }
            other.done()
        }
        guard let oldest = times.min(), let newest = times.max() else { return nil }
        return (oldest, newest)
    }
}
