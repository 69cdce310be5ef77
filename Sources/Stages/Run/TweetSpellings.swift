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
    /// - Complexity: O(mentions²) per tweet (a tweet has a handful); a
    ///   string only for a spelling other than its key.
    static func forEach(_ tweet: DecodedTweet, in record: DecodedRecord, table: MentionTable, mentions: MentionSet,
                        reading: TweetReading, _ body: (Int32, String?) -> Void) {
        var seen: [(Int32, String?)] = []
        func take(_ id: Int32, _ spelling: String?) {
            if seen.contains(where: { $0.0 == id && $0.1 == spelling }) { return }
            seen.append((id, spelling))
            body(id, spelling)
        }
        if reading.mentionsFromText {
            for spelling in TextExtractor.spellings(of: tweet, in: record) {
                guard let sign = spelling.first else { continue }
                let key = String(sign) + MentionKey.normalize(String(spelling.dropFirst()))
                guard let id = table.existingID(forKey: key), mentions.contains(id) else { continue }
                take(id, spelling == key ? nil : spelling)
            }
            return
        }
        func visit(_ span: ByteSpan, _ kind: MentionKind) {
            let raw = record.bytes(span)
            // The extractor interned these very bytes: a lookup by them is one hash.
            guard let id = table.id(raw: raw, escaped: span.escaped, kind: kind), mentions.contains(id) else { return }
            // Plain lowercase ASCII is its own key; anything else is compared with the key as a string.
            if !span.escaped && !raw.contains(where: { $0 >= 0x80 || ($0 &- 0x41) < 26 }) { return take(id, nil) }
            let spelling = kind.sign + record.spelling(span)
            take(id, spelling == table.keys[Int(id)] ? nil : spelling)
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
