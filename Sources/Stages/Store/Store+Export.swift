/// The store as portable NDJSON (SPEC §10): one line per tweet, each an
/// API v2 tweet object as flattening tools write them, so a snapshot is
/// itself a dump — `smashtag import` ingests it, and `smashtag report`
/// reads it directly with the same result as the store:
///
///     {"id":"1101454535685083166","created_at":"2019-03-01T12:10:00.000Z",
///      "author":{"username":"nasa"},"text":"…",
///      "entities":{"hashtags":[{"tag":"dup"}],"mentions":[{"username":"stanford"}]}}
///
/// Mentions are written as the tweet spelled them (schema v4; the
/// normalised key for a tweet ingested before), once per spelling, so an
/// import keeps `display`; `lang` and a retweet's `referenced_tweets`
/// (`{"type":"retweeted"}`) come along too. `created_at`, `author`, `text`,
/// `lang` and `entities` are left out when the store does not have them (v2
/// leaves out `entities` of a tweet without mentions). Tweets come in id order.
extension Store {
    /// Writes every tweet through `write`, one line each.
    ///
    /// - Parameter write: takes a batch of lines; returns false to stop
    ///   (the reader has gone).
    /// - Returns: the number of tweets written.
    /// - Complexity: one pass over the tweets and one over the links, in
    ///   id order; memory O(one batch of lines).
    @discardableResult
    public func export(_ write: (String) -> Bool) throws(StoreError) -> Int {
        try db.beginRead()
        defer { db.endRead() }
        let tweets = try db.statement("""
            SELECT t.id, t.created_at, a.key, t.text, t.lang, t.retweet FROM tweet t LEFT JOIN mention a ON a.id = t.author ORDER BY t.id
            """)
        let links = try db.statement("""
            SELECT l.tweet, m.key, s.text FROM tweet_mention l
            JOIN mention m ON m.id = l.mention LEFT JOIN spelling s ON s.id = l.spelling ORDER BY l.tweet
            """)
        let extras = try db.statement("""
            SELECT e.tweet, m.key, s.text FROM extra_spelling e
            JOIN mention m ON m.id = e.mention JOIN spelling s ON s.id = e.spelling ORDER BY e.tweet
            """)
        defer { tweets.done(); links.done(); extras.done() }
        var linkReady = try links.step()
        var extraReady = try extras.step()
        var out = ""
        var count = 0
        while try tweets.step() {
            let id = tweets.int64(0)
            // (key, spelling) pairs: a mention is written as each spelling the tweet gave it (SPEC §12.1), sorted.
            var written: [(key: String, spelling: String)] = []
            while linkReady && links.int64(0) < id { linkReady = try links.step() }
            while linkReady && links.int64(0) == id {
                if let key = links.text(1) { written.append((key, links.text(2) ?? key)) }
                linkReady = try links.step()
            }
            while extraReady && extras.int64(0) < id { extraReady = try extras.step() }
            while extraReady && extras.int64(0) == id {
                if let key = extras.text(1), let s = extras.text(2) { written.append((key, s)) }
                extraReady = try extras.step()
            }
            written.sort { $0.key != $1.key ? $0.key.utf8.lexicographicallyPrecedes($1.key.utf8)
                : $0.spelling.utf8.lexicographicallyPrecedes($1.spelling.utf8) }
            let hashtags = written.filter { $0.key.hasPrefix("#") }.map { String($0.spelling.dropFirst()) }
            let users = written.filter { $0.key.hasPrefix("@") }.map { String($0.spelling.dropFirst()) }
            out += "{\"id\":\"\(UInt64(bitPattern: id))\""
            if let t = tweets.optionalInt64(1) { out += ",\"created_at\":\"\(CreatedAt.iso(t))\"" }
            if let author = tweets.text(2) {
                out += ",\"author\":{\"username\":\(ReportWriter.jsonString(String(author.dropFirst())))}"
            }
            if let text = tweets.text(3) { out += ",\"text\":\(ReportWriter.jsonString(text))" }
            if let lang = tweets.text(4) { out += ",\"lang\":\(ReportWriter.jsonString(lang))" }
            if tweets.optionalInt64(5) == 1 { out += ",\"referenced_tweets\":[{\"type\":\"retweeted\"}]" }
            if !hashtags.isEmpty || !users.isEmpty {
                out += ",\"entities\":{\"hashtags\":["
                    + hashtags.map { "{\"tag\":\(ReportWriter.jsonString($0))}" }.joined(separator: ",")
                    + "],\"mentions\":["
                    + users.map { "{\"username\":\(ReportWriter.jsonString($0))}" }.joined(separator: ",")
                    + "]}"
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
