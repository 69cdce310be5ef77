/// The spellings of a tweet's mentions (SPEC §12.1), each paired with the
/// mention it writes: what `display` counts. One place for the report's
/// consumer (`MatchCollector`) and the store's (`StoreCollector`), so a
/// store answers `display` as the dumps do.
///
/// Entities mode reads the same spans the extractor interned (the tweet's
/// own, its retweeted tweet's, the retweeted author), in that order; text
/// mode the text as twitter-text reads it.
enum TweetSpellings {
    /// Whether the walk would give `mentions` themselves, each as its key,
    /// in the order met: every span the extractor read was written as its
    /// key, and those spans are the ones the walk visits
    /// (`MentionSet.keyedKinds`, nearly every tweet). Then no span need be
    /// looked up again.
    @inline(__always)
    static func spelledAsKeys(_ mentions: MentionSet, reading: TweetReading, kinds: MentionKinds) -> Bool {
        !reading.mentionsFromText && mentions.keyedKinds == kinds
    }

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
                        reading: TweetReading, kinds: MentionKinds, seen: inout SeenSpellings,
                        _ body: (Int32, String?, Int) -> Void) {
        if spelledAsKeys(mentions, reading: reading, kinds: kinds) {
            for id in mentions.ids { body(id, nil, -1) }
            return
        }
        seen.removeAll()
        func take(_ id: Int32, _ spelling: String?, _ entry: Int) {
            guard seen.insert(id, spelling) else { return }
            body(id, spelling, entry)
        }
        if reading.mentionsFromText {
            for spelling in TextExtractor.spellings(of: tweet, in: record, kinds: kinds) {
                guard let key = MentionKey.key(ofSpelling: spelling),
                      let id = table.existingID(forKey: key), mentions.contains(id) else { continue }
                take(id, spelling == key ? nil : spelling, -1)
                if spelling.signedKind == .url { derived(id) }
            }
            if kinds.has(.poster), let a = record.author(of: tweet) { visit(a, .poster) }
            return
        }
        func visit(_ hashtags: Range<Int>, _ users: Range<Int>) {
            for i in hashtags { visit(record.spans[i], .hashtag) }
            for i in users { visit(record.spans[i], .user) }
        }
        func visit(_ spans: Range<Int>, _ kind: MentionKind) {
            for i in spans { visit(record.spans[i], kind) }
        }
        visit(tweet.hashtags, tweet.users)
        if kinds.has(.symbol) { visit(tweet.symbols, .symbol) }
        if kinds.hasLinks { visit(tweet.links, .url) }
        if let rt = tweet.retweeted {
            visit(rt.hashtags, rt.users)
            if kinds.has(.symbol) { visit(rt.symbols, .symbol) }
            if kinds.hasLinks { visit(rt.links, .url) }
            if let author = record.name(rt.author) { visit(author, .user) }
        }
        if kinds.has(.poster), let a = record.author(of: tweet) { visit(a, .poster) }

        func visit(_ span: ByteSpan, _ kind: MentionKind) {
            // The extractor interned these very bytes: their slot is one hash away, and says when they spell the key.
            let (e, id, spelling) = table.spellingOf(raw: record.bytes(span), escaped: span.escaped, kind: kind)
            guard id >= 0 else { return }
            if kind == .url { derived(id) }
            guard mentions.contains(id) else { return }
            take(id, spelling, e)
        }
        /// A link's host and domain are written as their keys.
        func derived(_ url: Int32) {
            if kinds.has(.host) {
                let h = table.hostID(ofURL: url)
                if mentions.contains(h) { take(h, nil, -1) }
            }
            if kinds.has(.domain) {
                let d = table.domainID(ofURL: url)
                if mentions.contains(d) { take(d, nil, -1) }
            }
        }
    }
}


/// The (mention, spelling) pairs of one tweet met so far: the mentions
/// written as their keys (nearly all) apart, as bare ids, so that the
/// common case compares and clears no strings.
struct SeenSpellings {
    private var asKeys = DistinctList<Int32>()
    private var written = DistinctList<SeenSpelling>()

    /// Adds (`id`, `spelling`), the spelling nil for the key itself; false when it was there already.
    @inline(__always)
    mutating func insert(_ id: Int32, _ spelling: String?) -> Bool {
        guard let spelling else { return asKeys.insert(id) }
        return written.insert(SeenSpelling(id: id, spelling: spelling))
    }

    /// Empties it for the next tweet, keeping the storage.
    @inline(__always)
    mutating func removeAll() {
        asKeys.removeAll()
        written.removeAll()
    }
}

struct SeenSpelling: Hashable {
    var id: Int32
    var spelling: String
}
