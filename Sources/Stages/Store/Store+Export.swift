/// The store as portable NDJSON (SPEC §10): one line per tweet, each an
/// API v2 tweet object as flattening tools write them, so a snapshot is
/// itself a dump — `smashtag import` ingests it, and `smashtag report`
/// reads it directly with the same result as the store:
///
///     {"id":"1101454535685083166","created_at":"2019-03-01T12:10:00.000Z",
///      "author":{"username":"nasa"},"text":"…",
///      "entities":{"hashtags":[{"tag":"dup"}],"mentions":[{"username":"stanford"}]}}
///
/// Keys are the store's normalised ones (the snapshot's format since
/// schema v1; spellings stay in the store, so an imported store's `display`
/// is its keys). Symbols are `entities.cashtags`, links `entities.urls` (v6;
/// each as a link whose key is the stored one, `LinkKey.link(ofKey:)`);
/// hosts, domains and the poster follow from the links and the author. A tweet's `lang` and a retweet's `referenced_tweets`
/// (`{"type":"retweeted"}`) come along, so `--lang` and `--retweets` answer
/// the same after an import. `created_at`, `author`, `text`, `lang` and
/// `entities` are left out when the store does not have them (v2 leaves out
/// `entities` of a tweet without mentions). Tweets come in id order.
///
/// What `posts` needs (SPEC §15, v7) comes along as v2 references: the
/// post a tweet retweets, quotes or replies to is a `referenced_tweets`
/// entry with its id (`{"type":"replied_to","id":"…"}`), and what the
/// store's copies say of that post (`post_copy`) is written inline in the
/// entry, as flattening tools write it (`author`, `created_at`, `text`), so
/// an import keeps the same copies. A copy that says only a time is not
/// written (an entry without author or text is no copy to a reader).
extension Store {
    /// Writes every tweet through `write`, one line each.
    ///
    /// - Parameter write: takes a batch of lines; returns false to stop
    ///   (the reader has gone).
    /// - Returns: the number of tweets written.
    /// - Complexity: one pass over the tweets (their links in their rows),
    ///   in id order; memory O(mentions + one batch of lines).
    @discardableResult
    public func export(_ write: (String) -> Bool) throws(StoreError) -> Int {
        try db.beginRead()
        defer { db.endRead() }
        var keys: [Int64: String] = [:]
        let allKeys = try db.statement("SELECT id, key FROM mention")
        while try allKeys.step() { if let k = allKeys.text(1) { keys[allKeys.int64(0)] = k } }
        let tweets = try db.statement("""
            SELECT t.id, t.created_at, a.key, t.text, t.lang, t.retweet, t.links, t.retweet_of, t.quote_of, t.reply_to
            FROM tweet t LEFT JOIN mention a ON a.id = t.author ORDER BY t.id
            """)
        let copies = try db.statement("""
            SELECT c.created_at, a.key, c.text FROM post_copy c LEFT JOIN mention a ON a.id = c.author WHERE c.post = ?1
            """)
        /// A `referenced_tweets` entry: the post's id and, inline, what its copies say.
        func reference(_ type: String, _ post: Int64) throws(StoreError) -> String {
            var entry = "{\"type\":\"\(type)\",\"id\":\"\(UInt64(bitPattern: post))\""
            copies.reset()
            try copies.bind(1, post)
            if try copies.step(), copies.text(1) != nil || copies.text(2) != nil {
                if let t = copies.optionalInt64(0) { entry += ",\"created_at\":\"\(CreatedAt.iso(t))\"" }
                if let author = copies.text(1) { entry += ",\"author\":{\"username\":\(JSONText.quoted(author.unsigned))}" }
                if let text = copies.text(2) { entry += ",\"text\":\(JSONText.quoted(text))" }
            }
            copies.done()
            return entry + "}"
        }
        defer { tweets.done() }
        var set: [Int64] = []
        var out = ""
        var count = 0
        while try tweets.step() {
            let id = tweets.int64(0)
            var hashtags: [String] = [], users: [String] = [], symbols: [String] = [], urls: [String] = []
            Links.mentions(tweets.blob(6), into: &set)
            for m in set {
                guard let key = keys[m] else { continue }
                switch key.signedKind {
                case .hashtag: hashtags.append(key.unsigned)
                case .user: users.append(key.unsigned)
                case .symbol: symbols.append(key.unsigned)
                case .url: urls.append(LinkKey.link(ofKey: key.unsigned))
                // Hosts and domains follow from the links, the poster from the author.
                case .host, .domain, .poster, nil: break
                }
            }
            out += "{\"id\":\"\(UInt64(bitPattern: id))\""
            if let t = tweets.optionalInt64(1) { out += ",\"created_at\":\"\(CreatedAt.iso(t))\"" }
            if let author = tweets.text(2) {
                out += ",\"author\":{\"username\":\(JSONText.quoted(author.unsigned))}"
            }
            if let text = tweets.text(3) { out += ",\"text\":\(JSONText.quoted(text))" }
            if let lang = tweets.text(4) { out += ",\"lang\":\(JSONText.quoted(lang))" }
            var references: [String] = []
            if let post = tweets.optionalInt64(7) {
                references.append(try reference("retweeted", post))
            } else if tweets.optionalInt64(5) == 1 {
                references.append("{\"type\":\"retweeted\"}")
            }
            if let post = tweets.optionalInt64(8) { references.append(try reference("quoted", post)) }
            if let post = tweets.optionalInt64(9) { references.append(try reference("replied_to", post)) }
            if !references.isEmpty { out += ",\"referenced_tweets\":[" + references.joined(separator: ",") + "]" }
            if !hashtags.isEmpty || !users.isEmpty || !symbols.isEmpty || !urls.isEmpty {
                out += ",\"entities\":{\"hashtags\":["
                    + hashtags.sorted().map { "{\"tag\":\(JSONText.quoted($0))}" }.joined(separator: ",")
                    + "],\"mentions\":["
                    + users.sorted().map { "{\"username\":\(JSONText.quoted($0))}" }.joined(separator: ",")
                    + "]"
                if !symbols.isEmpty {
                    out += ",\"cashtags\":[" + symbols.sorted().map { "{\"tag\":\(JSONText.quoted($0))}" }.joined(separator: ",") + "]"
                }
                if !urls.isEmpty {
                    out += ",\"urls\":[" + urls.sorted().map { "{\"expanded_url\":\(JSONText.quoted($0))}" }.joined(separator: ",") + "]"
                }
                out += "}"
            }
            out += "}\n"
            count += 1
            if out.utf8.count >= 1 << 20 {
                guard write(out) else { return count }
                out = ""
            }
        }
        if !out.isEmpty { _ = write(out) }
        return count
    }
}
