/// The spellings of a tweet's mentions (SPEC §12.1), each paired with the
/// mention it writes: what `display` counts. One place for the report's
/// consumer (`MatchCollector`) and the store's (`StoreCollector`), so a
/// store answers `display` as the dumps do.
///
/// Entities mode takes the spellings from the same spans the extractor
/// interned (the tweet's own, its retweeted tweet's, the retweeted author);
/// text mode from the text as twitter-text reads it.
enum TweetSpellings {
    /// Calls `body` with each distinct (mention id in `table`, spelling with
    /// its sign) of `tweet`, in the order written; spellings whose mention is
    /// not in `mentions` (an empty key) are left out.
    ///
    /// - Complexity: O(mentions²) per tweet (a tweet has a handful); one
    ///   string per spelling.
    static func forEach(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet,
                        reading: TweetReading, _ body: (Int32, String) -> Void) {
        let written = reading.mentionsFromText ? TextExtractor.spellings(of: tweet, in: record) : record.spellings(of: tweet)
        var seen: [(Int32, String)] = []
        for spelling in written {
            guard let sign = spelling.first else { continue }
            let key = String(sign) + MentionKey.normalize(String(spelling.dropFirst()))
            guard let id = table.existingID(forKey: key), mentions.contains(id) else { continue }
            if seen.contains(where: { $0.0 == id && $0.1 == spelling }) { continue }
            seen.append((id, spelling))
            body(id, spelling)
        }
    }
}
