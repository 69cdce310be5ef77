/// The spellings of a tweet's mentions (SPEC §12.1), each paired with the
/// mention it writes: what `display` counts. One place for the report's
/// consumer (`MatchCollector`) and the store's (`StoreCollector`), so a
/// store answers `display` as the dumps do.
///
/// Entities mode reads the same spans the extractor interned (the tweet's
/// own, its retweeted tweet's, the retweeted author), in that order; text
/// mode the text as twitter-text reads it.
enum TweetSpellings {
    /// Calls `body` with each distinct (mention id in `table`, spelling with
    /// its sign) of `tweet`, the spelling nil when it is the mention's key
    /// itself (`#stanford`, the common case, which then builds no string);
    /// spellings whose mention is not in `mentions` (an empty key) are left out.
    ///
    /// - Complexity: O(mentions) per tweet (`DistinctList`); a string only
    ///   for a spelling other than its key.
    ///
    /// `body` also gets the spelling's entry in `table` (its raw bytes, -1
    /// for a spelling read from text), a small integer to key caches by.
    /// `seen` is the caller's scratch buffer, reused from tweet to tweet.
    static func forEach(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet,
                        reading: TweetReading, seen: inout SeenSpellings, _ body: (Int32, String?, Int) -> Void) {
        seen.removeAll()
        func take(_ id: Int32, _ spelling: String?, _ entry: Int) {
            guard seen.insert(SeenSpelling(id: id, spelling: spelling)) else { return }
            body(id, spelling, entry)
        }
        if reading.mentionsFromText {
            for spelling in TextExtractor.spellings(of: tweet, in: record) {
                guard let sign = spelling.first else { continue }
                let key = String(sign) + MentionKey.normalize(String(spelling.dropFirst()))
                guard let id = table.existingID(forKey: key), mentions.contains(id) else { continue }
                take(id, spelling == key ? nil : spelling, -1)
            }
            return
        }
        func visit(_ span: ByteSpan, _ kind: MentionKind) {
            // The extractor interned these very bytes: their entry is one hash away, its spelling kept.
            let e = table.entry(raw: record.bytes(span), escaped: span.escaped, kind: kind)
            let id = table.mentionID(ofEntry: e)
            guard id >= 0, mentions.contains(id) else { return }
            take(id, table.spelling(ofEntry: e), e)
        }
        func visit(_ hashtags: Range<Int>, _ users: Range<Int>) {
            for i in hashtags { visit(record.spans[i], .hashtag) }
            for i in users { visit(record.spans[i], .user) }
        }
        visit(tweet.hashtags, tweet.users)
        if let rt = tweet.retweeted {
            visit(rt.hashtags, rt.users)
            if let author = record.name(rt.author) { visit(author, .user) }
        }
    }
}


/// The (mention, spelling) pairs of one tweet met so far.
typealias SeenSpellings = DistinctList<SeenSpelling>

struct SeenSpelling: Hashable {
    var id: Int32
    var spelling: String?
}
